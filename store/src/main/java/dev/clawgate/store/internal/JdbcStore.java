package dev.clawgate.store.internal;

import dev.clawgate.core.cron.CronBook;
import dev.clawgate.core.cron.CronFire;
import dev.clawgate.core.inspect.TurnBook;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxBook;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.OutboxBook;
import dev.clawgate.core.store.PairingBook;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.core.store.TranscriptBook;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Store} on either SQL dialect: one {@link Database} shared by the books. Each book method is one
 * {@link Database} call, so one transaction; the SQL lives in the table classes.
 */
public final class JdbcStore implements Store {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcStore.class);

    private final Database db;
    private final JdbcInbox inbox;
    private final JdbcTranscripts transcripts;
    private final JdbcOutbox outbox;
    private final JdbcPairing pairing;
    private final JdbcMemory memory;
    private final JdbcCronBook cron;
    private final JdbcTurns turns;

    public JdbcStore(Database db, Clock clock) {
        this(db, clock, "");
    }

    /**
     * @param node this node's cluster id, recorded on the inbox records it takes and the outbox entries it claims (''
     *     outside cluster mode)
     */
    public JdbcStore(Database db, Clock clock, String node) {
        this.db = Objects.requireNonNull(db, "db");
        Objects.requireNonNull(clock, "clock");
        this.inbox = new JdbcInbox(db, clock, node);
        this.transcripts = new JdbcTranscripts(db, clock);
        this.outbox = new JdbcOutbox(db, clock, Objects.requireNonNull(node, "node"));
        this.pairing = new JdbcPairing(db, clock);
        this.memory = new JdbcMemory(db, clock);
        this.cron = new JdbcCronBook(db, clock);
        this.turns = new JdbcTurns(db);
    }

    @Override
    public InboxBook inbox() {
        return inbox;
    }

    @Override
    public TranscriptBook transcripts() {
        return transcripts;
    }

    @Override
    public OutboxBook outbox() {
        return outbox;
    }

    @Override
    public PairingBook pairing() {
        return pairing;
    }

    @Override
    public CronBook cron() {
        return cron;
    }

    @Override
    public TurnBook turns() {
        return turns;
    }

    @Override
    public Memory memory() {
        return memory;
    }

    @Override
    public Optional<InboxRecord> claimFireAndRecord(
            CronFire fire, SessionKey session, String dedupeKey, Duration dedupeTtl) {
        Objects.requireNonNull(fire, "fire");
        SessionKey key = SessionRows.normalise(Objects.requireNonNull(session, "session"));
        JdbcInbox.requireTtl(dedupeKey, dedupeTtl);
        String payload = InboundJson.write(fire.message());
        // one transaction: a crash or failure leaves the fire either due or recorded, never claimed and lost
        return db.write(
                "claimFireAndRecord",
                tx -> JdbcCronBook.claim(tx, fire.jobId(), fire.fireAt(), fire.next())
                        ? inbox.record(tx, fire.message(), key, dedupeKey, dedupeTtl, payload)
                        : Optional.<InboxRecord>empty());
    }

    @Override
    public boolean healthy() {
        try {
            return db.read("healthy", tx -> tx.first("SELECT 1", rs -> rs.getInt(1)))
                            .orElse(0)
                    == 1;
        } catch (StoreException e) {
            LOG.debug("store health check failed: {}", e.getMessage());
            return false;
        }
    }

    @Override
    public void close() {
        db.close();
    }
}
