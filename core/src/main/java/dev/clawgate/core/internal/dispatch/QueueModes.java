package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a batch goes when its session is busy (SPEC DI-3, DI-4): steered into the active run, queued behind it,
 * collected into a waiting batch, or interrupting it. Pure: it only changes the lane and the active run's steer box and
 * cancel token.
 */
final class QueueModes {
    /** What became of a batch. */
    enum Placement {
        /** All of it went into the active run: nothing waits, so no cap or notice applies. */
        STEERED,
        /** It waits in the lane. */
        QUEUED,
        /** It joined (or started) the collected batch at the head of the lane: its quiet window starts again. */
        COLLECTED_AT_HEAD
    }

    private QueueModes() {}

    /**
     * Places {@code batch} (one record, or a debounced burst, oldest first) in the busy {@code lane} as {@code qp}
     * says.
     */
    static Placement place(SessionLane lane, List<InboxRecord> batch, QueuePolicy qp) {
        InboxRecord newest = batch.get(batch.size() - 1);
        ScopeKey scope = ScopeKey.of(newest.message());
        String thread = newest.message().threadId();
        boolean sameScope = lane.activeIn(scope);
        switch (qp.mode()) {
            case INTERRUPT -> {
                if (sameScope) {
                    lane.active.cancel().cancel(RunHandle.REASON_INTERRUPT);
                    for (InboxRecord b : batch) lane.enqueueMerged(b, scope);
                } else {
                    lane.queue.add(new Pending(scope, thread, false, batch));
                }
            }
            case STEER -> {
                List<InboxRecord> rest = new ArrayList<>();
                for (InboxRecord b : batch) {
                    // once one is refused, the rest queue behind it, so the order holds
                    if (!(sameScope && rest.isEmpty() && lane.active.steer().offer(b, qp.cap()))) rest.add(b);
                }
                if (rest.isEmpty()) return Placement.STEERED;
                lane.queue.add(new Pending(scope, thread, false, rest));
            }
            case COLLECT -> {
                Pending collected = null;
                for (InboxRecord b : batch) collected = lane.enqueueCollected(b);
                if (lane.queue.get(0) == collected) return Placement.COLLECTED_AT_HEAD;
            }
            case FOLLOWUP -> lane.queue.add(new Pending(scope, thread, false, batch));
        }
        return Placement.QUEUED;
    }
}
