package dev.clawgate.store.internal;

import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxBook;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link OutboxBook} on either SQL dialect; the SQL lives in {@link OutboxRows}. */
final class JdbcOutbox implements OutboxBook {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcOutbox.class);
    private static final String NEVER_WRITTEN =
            "notices and blocks are sent best-effort and never written to the outbox (SPEC OUT-2, OUT-12)";

    private final Database db;
    private final Clock clock;
    private final String node;

    JdbcOutbox(Database db, Clock clock, String node) {
        this.db = db;
        this.clock = clock;
        this.node = node;
    }

    /**
     * {@inheritDoc} The inbox update, the assistant message and the outbox row are one transaction, so after a crash
     * either all three exist or none does (SPEC IN-4).
     */
    @Override
    public Optional<OutboxEntry> completeTurnWithReply(
            SessionKey session, long inboxId, String assistantContent, InboxState finalState, OutboundDraft reply) {
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        JdbcTranscripts.requireFinal(finalState);
        Objects.requireNonNull(reply, "reply");
        if (!reply.kind().replayed()) {
            throw new IllegalArgumentException(NEVER_WRITTEN);
        }
        return db.write("completeTurnWithReply", tx -> {
            long now = clock.millis();
            if (!InboxRows.finish(tx, inboxId, finalState, now)) {
                LOG.debug("inbox record {} already has a final state; turn and reply not recorded again", inboxId);
                return OutboxRows.ofTurn(tx, inboxId, reply.kind());
            }
            long sessionId = SessionRows.touch(tx, key, now);
            if (assistantContent != null) {
                TranscriptRows.append(tx, sessionId, Role.ASSISTANT, assistantContent, inboxId, now);
            }
            return Optional.of(OutboxRows.insert(tx, inboxId, reply, now));
        });
    }

    @Override
    public OutboxEntry enqueue(long turnId, OutboundDraft draft) {
        Objects.requireNonNull(draft, "draft");
        if (!draft.kind().replayed()) {
            throw new IllegalArgumentException(NEVER_WRITTEN);
        }
        if (draft.sendKey().isEmpty()) {
            throw new IllegalArgumentException("an outbox entry outside a turn's end needs a send key");
        }
        return db.write("enqueueOutbox", tx -> OutboxRows.insert(tx, turnId, draft, clock.millis()));
    }

    @Override
    public boolean claim(long entryId) {
        return db.write("claimOutbox", tx -> OutboxRows.claim(tx, db.dialect(), entryId, clock.millis(), node));
    }

    @Override
    public void update(long entryId, OutboxUpdate update) {
        Objects.requireNonNull(update, "update");
        db.write("updateOutbox", tx -> {
            OutboxRows.update(tx, entryId, update, clock.millis(), node);
            return null;
        });
    }

    @Override
    public Optional<OutboxEntry> entry(long entryId) {
        return db.read("outboxEntry", tx -> OutboxRows.byId(tx, entryId));
    }

    @Override
    public List<OutboxEntry> due(Instant now, int limit) {
        Objects.requireNonNull(now, "now");
        if (limit < 1) throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        return db.read("outboxDue", tx -> OutboxRows.due(tx, now.toEpochMilli(), limit));
    }

    @Override
    public List<MessageReceipt> replyReceipts(long turnId) {
        return db.read("replyReceipts", tx -> OutboxRows.replyReceipts(tx, turnId));
    }

    @Override
    public List<OutboxEntry> byState(OutboxState... states) {
        List<OutboxState> wanted = List.of(Objects.requireNonNull(states, "states")).stream()
                .distinct()
                .toList();
        return db.read("outboxByState", tx -> OutboxRows.byState(tx, wanted));
    }

    @Override
    public Map<OutboxState, Long> counts() {
        return db.read("outboxCounts", OutboxRows::counts);
    }
}
