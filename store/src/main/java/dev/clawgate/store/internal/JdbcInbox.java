package dev.clawgate.store.internal;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxBook;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.UnreadableInbound;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link InboxBook} on either SQL dialect; the SQL lives in {@link InboxRows} and {@link UnreadableRows}. */
final class JdbcInbox implements InboxBook {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcInbox.class);

    private final Database db;
    private final Clock clock;
    /** This node's cluster id, recorded on each record it takes ('' outside cluster mode; SPEC OP-2, IN-4). */
    private final String node;

    JdbcInbox(Database db, Clock clock, String node) {
        this.db = db;
        this.clock = clock;
        this.node = node;
    }

    @Override
    public Optional<InboxRecord> record(
            InboundMessage message, SessionKey session, String dedupeKey, Duration dedupeTtl) {
        Objects.requireNonNull(message, "message");
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        requireTtl(dedupeKey, dedupeTtl);
        String payload = InboundJson.write(message);
        return db.write("recordInbound", tx -> record(tx, message, key, dedupeKey, dedupeTtl, payload));
    }

    static void requireTtl(String dedupeKey, Duration dedupeTtl) {
        if (dedupeKey != null && (dedupeTtl == null || dedupeTtl.isNegative())) {
            throw new IllegalArgumentException("a dedupe key needs a TTL of zero or more, got " + dedupeTtl);
        }
    }

    /** The inbox row and its dedupe key inside the caller's transaction; empty for a fresh duplicate. */
    Optional<InboxRecord> record(
            Tx tx, InboundMessage message, SessionKey key, String dedupeKey, Duration dedupeTtl, String payload)
            throws SQLException {
        long now = clock.millis();
        if (dedupeKey != null && !InboxRows.claimKey(tx, db.dialect(), dedupeKey, now, now - dedupeTtl.toMillis())) {
            return Optional.empty();
        }
        long sessionId = SessionRows.touch(tx, key, now);
        long id = InboxRows.insert(tx, message, sessionId, dedupeKey, payload, now, node);
        return Optional.of(new InboxRecord(id, message, key, InboxState.RECEIVED, 0, Instant.ofEpochMilli(now)));
    }

    @Override
    public void mark(long inboxId, InboxState state, String detail) {
        Objects.requireNonNull(state, "state");
        boolean moved = db.write("markInbox", tx -> InboxRows.move(tx, inboxId, state, detail, clock.millis()));
        if (!moved) {
            LOG.debug("inbox record {} already has a final state; not moved to {}", inboxId, state.wireName());
        }
    }

    @Override
    public Optional<InboxRecord> find(long inboxId) {
        return db.read("inbox", tx -> InboxRows.find(tx, inboxId));
    }

    /** {@inheritDoc} One probe of the primary key: no join, no message parsed. */
    @Override
    public Optional<InboxState> state(long inboxId) {
        return db.read("inboxState", tx -> InboxRows.state(tx, inboxId));
    }

    @Override
    public List<InboxRecord> unfinished() {
        return db.read("unfinishedInbox", InboxRows::unfinished);
    }

    @Override
    public Map<InboxState, Long> counts() {
        return db.read("inboxCounts", InboxRows::counts);
    }

    @Override
    public List<InboxRecord> buffered(SessionKey session, int limit) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        if (limit == 0) {
            return List.of();
        }
        return db.read("bufferedInbox", tx -> InboxRows.buffered(tx, key, limit));
    }

    @Override
    public boolean recordUnreadable(UnreadableInbound unreadable) {
        Objects.requireNonNull(unreadable, "unreadable");
        return db.write("recordUnreadable", tx -> UnreadableRows.insert(tx, unreadable, clock.millis()));
    }

    @Override
    public List<UnreadableInbound> unreadable(int limit) {
        if (limit < 0) throw new IllegalArgumentException("limit must not be negative, got " + limit);
        return db.read("unreadableInbound", tx -> UnreadableRows.newest(tx, limit));
    }
}
