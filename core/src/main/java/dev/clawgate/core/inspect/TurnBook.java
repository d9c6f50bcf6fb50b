package dev.clawgate.core.inspect;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The turn inspector's records (SPEC OP-8): every turn phase by phase, handed out by
 * {@link dev.clawgate.core.store.Store#turns()}. A turn is written once, when it ends, as one row; reading never blocks
 * a turn. Every method is its own transaction; thread-safe.
 */
public interface TurnBook {

    /** The most turns one {@link #list} call returns. */
    int MAX_LIST = 1000;

    /**
     * Records a finished turn and its phases in one statement; {@code trace.summary().id()} is ignored.
     *
     * @return the turn id the store gave it (increasing, never reused)
     */
    long record(TurnTrace trace);

    /**
     * Records several finished turns in one transaction (the inspector's batched writer); ids are given in order.
     *
     * @return how many were recorded
     */
    default int recordAll(java.util.List<TurnTrace> traces) {
        for (TurnTrace t : traces) record(t);
        return traces.size();
    }

    /**
     * Turns newest first.
     *
     * @param session only this session (as {@link dev.clawgate.core.model.SessionKey#display()} prints it), or null for
     *     every session
     * @param since only turns started at or after this instant, or null for all
     * @param limit at most this many, clamped to 1..{@link #MAX_LIST}
     */
    List<TurnSummary> list(String session, Instant since, int limit);

    /** The turn with its phases in order; empty when there is no such turn (or it was pruned). */
    Optional<TurnTrace> find(long turnId);

    /**
     * The turns recorded for one inbox record, oldest first: its run, a re-run after a crash, and a duplicate delivery
     * that was dropped (outcome {@link TurnSummary#DUPLICATE}).
     */
    List<TurnSummary> findByInbox(long inboxId);

    /**
     * Deletes the turns started before {@code before} ({@code inspector.retention}).
     *
     * @return how many were deleted
     */
    int prune(Instant before);
}
