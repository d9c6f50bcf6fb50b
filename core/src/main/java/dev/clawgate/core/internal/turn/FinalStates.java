package dev.clawgate.core.internal.turn;

import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The final state each inbox record of one turn was given (SPEC IN-4), as the turn's stages decide them: a record gets
 * one, never two, and the {@link TurnChain} requires one for every record the turn answers. The store keeps the first
 * final state of a record and ignores later ones; this ledger makes a second decision an error instead of a no-op.
 */
final class FinalStates {
    private final Map<Long, InboxState> given = new ConcurrentHashMap<>();

    /**
     * Notes that {@code inboxId} was given {@code state}.
     *
     * @throws Violation when the record already has a final state from this turn
     * @throws IllegalArgumentException when {@code state} is not final
     */
    void finish(long inboxId, InboxState state) {
        if (!state.isFinal()) throw new IllegalArgumentException(state + " is not a final state");
        InboxState before = given.putIfAbsent(inboxId, state);
        if (before != null) {
            throw new Violation("inbox " + inboxId + " finished twice: " + before + ", then " + state);
        }
    }

    boolean finished(long inboxId) {
        return given.containsKey(inboxId);
    }

    /** The final state {@code inboxId} was given by this turn, or null. */
    InboxState of(long inboxId) {
        return given.get(inboxId);
    }

    /** @throws Violation naming the first record of {@code records} that has no final state */
    void requireEach(List<InboxRecord> records) {
        for (InboxRecord r : records) {
            if (!given.containsKey(r.id())) throw new Violation("inbox " + r.id() + " left without a final state");
        }
    }

    /** A broken rule of the turn's chain: a programming error, never a user's or a platform's. */
    static final class Violation extends IllegalStateException {
        Violation(String message) {
            super(message);
        }
    }
}
