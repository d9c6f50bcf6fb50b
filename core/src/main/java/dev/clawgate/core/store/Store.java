package dev.clawgate.core.store;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Everything that must survive a restart (ARCHITECTURE: Storage). Every method is its own
 * transaction and has committed when it returns; failures are {@link StoreException}s.
 * Thread-safe.
 */
public interface Store extends AutoCloseable {

    // --- inbox (SPEC IN-4) and dedupe (SPEC IN-1)

    /**
     * Records an inbound message and its dedupe key in one transaction. Returns empty when
     * {@code dedupeKey} was already recorded less than {@code dedupeTtl} ago (a duplicate); a
     * null key is never deduplicated.
     */
    Optional<InboxRecord> recordInbound(InboundMessage message, SessionKey session, String dedupeKey, Duration dedupeTtl);

    /** Moves a record to {@code state}; {@code DISPATCHED} also counts an attempt. {@code detail} may be null. */
    void markInbox(long inboxId, InboxState state, String detail);

    Optional<InboxRecord> inbox(long inboxId);

    /** Records in {@code RECEIVED} or {@code DISPATCHED}, oldest first: what a restart must run again. */
    List<InboxRecord> unfinishedInbox();

    /** How many records are in each state: for status, metrics and tests. */
    java.util.Map<InboxState, Long> inboxCounts();

    /**
     * The newest {@code limit} records of the session in {@code BUFFERED}, oldest first: the group
     * history a triggered run gets as context (SPEC IN-6). {@code limit} 0 gives none.
     *
     * @throws IllegalArgumentException when {@code limit} is negative
     */
    List<InboxRecord> bufferedInbox(SessionKey session, int limit);

    // --- sessions and transcripts (SPEC HI-1, HI-2)

    /** The newest {@code maxMessages} entries of the session, oldest first. */
    List<TranscriptEntry> loadTranscript(SessionKey session, int maxMessages);

    /** Appends the user message of a turn; a second call for the same inbox id does nothing. */
    void appendUserMessage(SessionKey session, long inboxId, String content);

    /**
     * Starts a run in ONE transaction (SPEC IN-4, HI-1): moves each message's inbox record to
     * {@code DISPATCHED} as {@link #markInbox} does (counting an attempt; a record already in a final
     * state stays in it) and appends the message as {@link #appendUserMessage} does, in order.
     */
    void dispatchWithUserMessages(SessionKey session, List<UserMessage> messages);

    /** Removes the user message of a turn again (SPEC HI-6: a vision error rolls the turn back). */
    void removeUserMessage(SessionKey session, long inboxId);

    /**
     * Ends a turn in one transaction: appends the assistant message (unless null) and moves the
     * inbox record to {@code finalState} (SPEC IN-4: done commits with the assistant message).
     */
    void completeTurn(SessionKey session, long inboxId, String assistantContent, InboxState finalState);

    /** Forgets a session's transcript ({@code /new}). */
    void clearTranscript(SessionKey session);

    /** Replaces a session's transcript in one transaction (compaction, SPEC HI-5). */
    void replaceTranscript(SessionKey session, List<ChatMessage> messages);

    /** A per-session setting such as the {@code /model} override; empty when unset. */
    Optional<String> sessionSetting(SessionKey session, String name);

    /** Sets a per-session setting; a null value removes it. */
    void putSessionSetting(SessionKey session, String name, String value);

    List<SessionSummary> sessions();

    // --- pairing (SPEC IN-5)
    // Codes are matched ignoring case and surrounding blanks (Pairing.normaliseCode). A pending
    // pairing is "unexpired" while now < expiresAt.

    /** The sender's pending, unexpired pairing on that channel account, if any. */
    Optional<Pairing> pendingPairing(String channel, String account, String sender, java.time.Instant now);

    /**
     * Records a pending pairing. If the sender already has a pending, unexpired one (another node
     * or thread got there first), that one is returned and nothing is added. Throws
     * {@link IllegalArgumentException} when {@code code} is already in use, so the caller can draw another.
     */
    Pairing createPairing(String channel, String account, String sender, String code, java.time.Instant now,
                          java.time.Instant expiresAt);

    /** How many pending, unexpired pairings the channel account has. */
    int pendingPairingCount(String channel, String account, java.time.Instant now);

    /**
     * Pairings oldest first, with their status at the store clock's now. {@code includeExpired}
     * false: only those waiting for the owner (pending, unexpired); true: every pairing, also
     * approved, rejected and expired ones.
     */
    List<Pairing> pairings(boolean includeExpired);

    /**
     * Approves a pending, unexpired pairing and records its sender as paired, so
     * {@link #isApproved} admits them from then on. Empty when no such code is pending.
     */
    Optional<Pairing> approvePairing(String code, java.time.Instant now);

    /** Rejects a pending, unexpired pairing (at the store clock's now). Empty when no such code is pending. */
    Optional<Pairing> rejectPairing(String code);

    /** Whether the owner approved a pairing of this sender on this channel account. */
    boolean isApproved(String channel, String account, String sender);

    // --- memory (SPEC ME-1..ME-7)

    /** The long-term memory kept in this store's database. */
    dev.clawgate.core.memory.Memory memory();

    // --- cron (SPEC AG-5, OP-1)

    /** The scheduled agent turns kept in this store's database. */
    dev.clawgate.core.cron.CronBook cron();

    /**
     * Claims a cron fire and records its turn's inbound message in ONE transaction (SPEC AG-5, IN-4,
     * OUT-12): the compare-and-set of {@link dev.clawgate.core.cron.CronBook#claimFire} (the job's next
     * fire moves from {@code fire.fireAt()} to {@code fire.next()}, or the job is deleted when that is
     * null) and the inbox row with its dedupe key, as {@link #recordInbound}. A lost claim changes
     * nothing; a dedupe key already recorded within {@code dedupeTtl} keeps the claim and adds no row;
     * a failure rolls both back, so the fire stays due.
     *
     * @return the new inbox record; empty when the claim was lost or the fire's message was already recorded
     */
    Optional<InboxRecord> claimFireAndRecord(dev.clawgate.core.cron.CronFire fire, SessionKey session, String dedupeKey,
                                             Duration dedupeTtl);

    /** Whether the store answers a trivial query: for readiness checks. */
    boolean healthy();

    // --- outbox (SPEC OUT-5..OUT-7)

    /**
     * Ends a turn whose final reply is to be sent, in ONE transaction (SPEC IN-4, OUT-5): appends
     * the assistant message (unless null), moves the inbox record to {@code finalState} and writes
     * the reply as a {@code PENDING} outbox entry keyed by (turn id = {@code inboxId}, the draft's
     * kind) (SPEC OUT-12). When the record already has a final state nothing is recorded and the
     * turn's existing entry of that kind is returned, or empty when it has none (say /stop ended it).
     *
     * @throws IllegalArgumentException when {@code finalState} is not final, the draft is a notice
     *                                  (notices are never replayed), or there is no such record
     */
    Optional<OutboxEntry> completeTurnWithReply(SessionKey session, long inboxId, String assistantContent, InboxState finalState,
                                                OutboundDraft reply);

    /**
     * Records a delivery intent that does not end a turn (SPEC AG-5 {@code message_send}, OUT-5):
     * a {@code PENDING} entry keyed by (turn id, kind, send key), or the existing one of that key.
     *
     * @throws IllegalArgumentException for a notice (never written) or a draft without a send key
     */
    OutboxEntry enqueueOutbox(long turnId, OutboundDraft draft);

    /**
     * Moves an entry {@code PENDING → SENDING} and returns true, or returns false (changing nothing)
     * when it is not {@code PENDING}: only the caller that wins the claim may talk to the platform.
     */
    boolean claimOutbox(long entryId);

    /**
     * Writes what a delivery attempt learnt (SPEC OUT-5, OUT-7). When the update carries receipts,
     * they are also stored with the turn's assistant message in the transcript (SPEC OUT-8).
     *
     * @throws IllegalArgumentException when there is no such entry
     */
    void updateOutbox(long entryId, OutboxUpdate update);

    /** One entry, if it exists. */
    Optional<OutboxEntry> outboxEntry(long entryId);

    /** Entries in any of {@code states}, oldest first. */
    List<OutboxEntry> outboxByState(OutboxState... states);

    /** {@code PENDING} entries whose next attempt is due at {@code now}, oldest first, at most {@code limit}. */
    List<OutboxEntry> outboxDue(java.time.Instant now, int limit);

    /** The receipts stored with turn {@code turnId}'s assistant message (SPEC OUT-8), empty when none. */
    List<dev.clawgate.core.outbound.MessageReceipt> replyReceipts(long turnId);

    /** How many entries are in each state (every state present, zero when none). */
    java.util.Map<OutboxState, Long> outboxCounts();

    @Override
    void close();
}
