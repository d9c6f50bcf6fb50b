package dev.clawgate.core.store;

import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.MessageReceipt;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Delivery intents (SPEC OUT-5..OUT-7): handed out by {@link Store#outbox()}. Every method is its own transaction;
 * thread-safe.
 */
public interface OutboxBook {

    /**
     * Ends a turn whose final reply is to be sent, in ONE transaction (SPEC IN-4, OUT-5): appends the assistant message
     * (unless null), moves the inbox record to {@code finalState} and writes the reply as a {@code PENDING} outbox
     * entry keyed by (turn id = {@code inboxId}, the draft's kind) (SPEC OUT-12). When the record already has a final
     * state nothing is recorded and the turn's existing entry of that kind is returned, or empty when it has none (say
     * /stop ended it).
     *
     * @throws IllegalArgumentException when {@code finalState} is not final, the draft is a notice (notices are never
     *     replayed), or there is no such record
     */
    Optional<OutboxEntry> completeTurnWithReply(
            SessionKey session, long inboxId, String assistantContent, InboxState finalState, OutboundDraft reply);

    /**
     * Records a delivery intent that does not end a turn (SPEC AG-5 {@code message_send}, OUT-5): a {@code PENDING}
     * entry keyed by (turn id, kind, send key), or the existing one of that key.
     *
     * @throws IllegalArgumentException for a notice (never written) or a draft without a send key
     */
    OutboxEntry enqueue(long turnId, OutboundDraft draft);

    /**
     * Moves an entry {@code PENDING → SENDING} and returns true, or returns false (changing nothing) when it is not
     * {@code PENDING}: only the caller that wins the claim may talk to the platform.
     */
    boolean claim(long entryId);

    /**
     * Writes what a delivery attempt learnt (SPEC OUT-5, OUT-7). When the update carries receipts, they are also stored
     * with the turn's assistant message in the transcript (SPEC OUT-8).
     *
     * @throws IllegalArgumentException when there is no such entry
     */
    void update(long entryId, OutboxUpdate update);

    /** One entry, if it exists. */
    Optional<OutboxEntry> entry(long entryId);

    /** Entries in any of {@code states}, oldest first. */
    List<OutboxEntry> byState(OutboxState... states);

    /** {@code PENDING} entries whose next attempt is due at {@code now}, oldest first, at most {@code limit}. */
    List<OutboxEntry> due(Instant now, int limit);

    /** The receipts stored with turn {@code turnId}'s assistant message (SPEC OUT-8), empty when none. */
    List<MessageReceipt> replyReceipts(long turnId);

    /** How many entries are in each state (every state present, zero when none). */
    Map<OutboxState, Long> counts();
}
