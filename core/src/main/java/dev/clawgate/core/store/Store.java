package dev.clawgate.core.store;

import dev.clawgate.core.cron.CronBook;
import dev.clawgate.core.cron.CronFire;
import dev.clawgate.core.inspect.TurnBook;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.model.SessionKey;
import java.time.Duration;
import java.util.Optional;

/**
 * Everything that must survive a restart (ARCHITECTURE: Storage), as focused books that share one database. Every book
 * method is its own transaction and has committed when it returns; failures are {@link StoreException}s. Thread-safe.
 */
public interface Store extends AutoCloseable {

    /** The inbox, dedupe keys and unreadable updates (SPEC IN-1, IN-4). */
    InboxBook inbox();

    /** Sessions, their settings and transcripts (SPEC HI-1, HI-2). */
    TranscriptBook transcripts();

    /** Delivery intents (SPEC OUT-5..OUT-7). */
    OutboxBook outbox();

    /** Pairing codes and paired senders (SPEC IN-5). */
    PairingBook pairing();

    /** The long-term memory kept in this store's database (SPEC ME-1..ME-7). */
    Memory memory();

    /** The scheduled agent turns kept in this store's database (SPEC AG-5, OP-1). */
    CronBook cron();

    /** The turn inspector's records: every turn phase by phase (SPEC OP-8). */
    TurnBook turns();

    /**
     * Claims a cron fire and records its turn's inbound message in ONE transaction (SPEC AG-5, IN-4, OUT-12): the
     * compare-and-set of {@link CronBook#claimFire} (the job's next fire moves from {@code fire.fireAt()} to
     * {@code fire.next()}, or the job is deleted when that is null) and the inbox row with its dedupe key, as
     * {@link InboxBook#record}. A lost claim changes nothing; a dedupe key already recorded within {@code dedupeTtl}
     * keeps the claim and adds no row; a failure rolls both back, so the fire stays due.
     *
     * @return the new inbox record; empty when the claim was lost or the fire's message was already recorded
     */
    Optional<InboxRecord> claimFireAndRecord(CronFire fire, SessionKey session, String dedupeKey, Duration dedupeTtl);

    /** Whether the store answers a trivial query: for readiness checks. */
    boolean healthy();

    @Override
    void close();
}
