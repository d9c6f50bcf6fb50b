package dev.clawgate.core.store;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The inbox (SPEC IN-4), its dedupe keys (SPEC IN-1) and the unreadable updates (SPEC CH-0): handed out by
 * {@link Store#inbox()}. Every method is its own transaction; thread-safe.
 */
public interface InboxBook {

    /** How many unreadable updates the store keeps at most: older ones go (SPEC OP-7). */
    int UNREADABLE_KEPT = 1000;

    /**
     * Records an inbound message and its dedupe key in one transaction. Returns empty when {@code dedupeKey} was
     * already recorded less than {@code dedupeTtl} ago (a duplicate); a null key is never deduplicated.
     */
    Optional<InboxRecord> record(InboundMessage message, SessionKey session, String dedupeKey, Duration dedupeTtl);

    /** Moves a record to {@code state}; {@code DISPATCHED} also counts an attempt. {@code detail} may be null. */
    void mark(long inboxId, InboxState state, String detail);

    Optional<InboxRecord> find(long inboxId);

    /**
     * The record's state alone, as {@link #find} has it: what receipts, acks and consolidation ask after a turn,
     * without reading the message back (issue 27).
     */
    default Optional<InboxState> state(long inboxId) {
        return find(inboxId).map(InboxRecord::state);
    }

    /** Records in {@code RECEIVED} or {@code DISPATCHED}, oldest first: what a restart must run again. */
    List<InboxRecord> unfinished();

    /** How many records are in each state: for status, metrics and tests. */
    Map<InboxState, Long> counts();

    /**
     * The newest {@code limit} records of the session in {@code BUFFERED}, oldest first: the group history a triggered
     * run gets as context (SPEC IN-6). {@code limit} 0 gives none.
     *
     * @throws IllegalArgumentException when {@code limit} is negative
     */
    List<InboxRecord> buffered(SessionKey session, int limit);

    /**
     * Keeps an update a channel could not read (SPEC IN-4, CH-0), in its own transaction; only the newest
     * {@link #UNREADABLE_KEPT} are kept. The same (channel, account, platform ref) recorded again (the platform
     * delivered it again before the channel's ack) adds nothing.
     *
     * @return true when it was new
     */
    boolean recordUnreadable(UnreadableInbound unreadable);

    /** The newest {@code limit} unreadable updates, newest first. */
    List<UnreadableInbound> unreadable(int limit);
}
