package dev.clawgate.core.internal.dispatch;

import static dev.clawgate.core.internal.dispatch.LaneRecords.busyWith;
import static dev.clawgate.core.internal.dispatch.LaneRecords.texts;
import static dev.clawgate.core.internal.dispatch.LaneRecords.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.internal.dispatch.QueueModes.Placement;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a batch for a busy session goes by its queue mode, seen in the lane and the active run. */
class QueueModesTest {
    private final LaneRecords records = new LaneRecords();
    private final InboxRecord running = records.from("alice", "running");
    private final SessionLane lane = busyWith(running);
    private final RunHandle run = lane.active;

    private static QueuePolicy policy(QueueMode mode, int cap) {
        return new QueuePolicy(mode, Duration.ofMillis(50), cap, DropPolicy.OLD);
    }

    @Test
    void followupQueuesTheBatchAsOneRunBehindWhatWaits() {
        // SPEC DI-3 followup
        lane.queue.add(Pending.of(records.from("bob", "earlier"), false));
        List<InboxRecord> batch = List.of(records.from("alice", "f1"), records.from("alice", "f2"));

        assertThat(QueueModes.place(lane, batch, policy(QueueMode.FOLLOWUP, 10)))
                .isEqualTo(Placement.QUEUED);

        assertThat(waiting(lane)).containsExactly(List.of("earlier"), List.of("f1", "f2"));
        assertThat(lane.queue.get(1).collect).isFalse();
        assertThat(lane.queue.get(1).thread).isNull();
        assertThat(run.cancel().isCancelled()).isFalse();
        assertThat(run.steer().hasPending()).isFalse();
    }

    @Test
    void steerHandsTheBatchToTheActiveRunOfTheSameScope() {
        // SPEC DI-3 steer: the run takes it before its next model call; nothing waits
        List<InboxRecord> batch = List.of(records.from("alice", "s1"), records.from("alice", "s2"));

        assertThat(QueueModes.place(lane, batch, policy(QueueMode.STEER, 10))).isEqualTo(Placement.STEERED);

        assertThat(texts(run.steer().drain())).containsExactly("s1", "s2");
        assertThat(lane.queue).isEmpty();
    }

    @Test
    void steerPastTheCapQueuesTheRestInOrder() {
        // SPEC DI-3: a flood must not grow the steer box; once one is refused, the rest queue behind it
        List<InboxRecord> batch =
                List.of(records.from("alice", "s1"), records.from("alice", "s2"), records.from("alice", "s3"));

        assertThat(QueueModes.place(lane, batch, policy(QueueMode.STEER, 1))).isEqualTo(Placement.QUEUED);

        assertThat(texts(run.steer().drain())).containsExactly("s1");
        assertThat(waiting(lane)).containsExactly(List.of("s2", "s3"));
    }

    @Test
    void steerFromAnotherScopeQueuesInsteadOfJoiningTheRun() {
        // SPEC DI-4: a message steers only the run of its own scope
        List<InboxRecord> batch = List.of(records.from("bob", "b1"));

        assertThat(QueueModes.place(lane, batch, policy(QueueMode.STEER, 10))).isEqualTo(Placement.QUEUED);

        assertThat(run.steer().hasPending()).isFalse();
        assertThat(waiting(lane)).containsExactly(List.of("b1"));
    }

    @Test
    void steerIntoALaneWaitingForItsQuietWindowQueues() {
        // SPEC DI-3: with no active run there is nothing to steer
        SessionLane quiet = new SessionLane(running.session());
        quiet.queue.add(Pending.of(records.from("alice", "collected"), true));

        assertThat(QueueModes.place(quiet, List.of(records.from("alice", "s")), policy(QueueMode.STEER, 10)))
                .isEqualTo(Placement.QUEUED);

        assertThat(waiting(quiet)).containsExactly(List.of("collected"), List.of("s"));
    }

    @Test
    void interruptCancelsTheSameScopesRunAndRunsNextWithItsScopesQueuedMessages() {
        // SPEC DI-3 interrupt
        lane.queue.add(Pending.of(records.from("bob", "bob"), false));
        lane.queue.add(Pending.of(records.from("alice", "alice-queued"), false));
        List<InboxRecord> batch = List.of(records.from("alice", "i1"), records.from("alice", "i2"));

        assertThat(QueueModes.place(lane, batch, policy(QueueMode.INTERRUPT, 10)))
                .isEqualTo(Placement.QUEUED);

        assertThat(run.cancel().reason()).isEqualTo(RunHandle.REASON_INTERRUPT);
        assertThat(waiting(lane)).containsExactly(List.of("bob"), List.of("alice-queued", "i1", "i2"));
    }

    @Test
    void interruptWithNothingOfItsScopeWaitingGoesToTheHead() {
        // SPEC DI-3 interrupt: the newest message runs next
        lane.queue.add(Pending.of(records.from("bob", "bob"), false));

        QueueModes.place(lane, List.of(records.from("alice", "i1")), policy(QueueMode.INTERRUPT, 10));

        assertThat(waiting(lane)).containsExactly(List.of("i1"), List.of("bob"));
    }

    @Test
    void interruptFromAnotherScopeQueuesAndLeavesTheRun() {
        // SPEC DI-4: only the same scope interrupts
        lane.queue.add(Pending.of(records.from("carol", "carol"), false));

        assertThat(QueueModes.place(
                        lane,
                        List.of(records.from("bob", "b1"), records.from("bob", "b2")),
                        policy(QueueMode.INTERRUPT, 10)))
                .isEqualTo(Placement.QUEUED);

        assertThat(run.cancel().isCancelled()).isFalse();
        assertThat(waiting(lane)).containsExactly(List.of("carol"), List.of("b1", "b2"));
    }

    @Test
    void collectStartsABatchAtTheHeadOfAnEmptyQueue() {
        // SPEC DI-3 collect: the head batch's quiet window starts again with each message it takes
        assertThat(QueueModes.place(lane, List.of(records.from("alice", "c1")), policy(QueueMode.COLLECT, 10)))
                .isEqualTo(Placement.COLLECTED_AT_HEAD);
        assertThat(QueueModes.place(lane, List.of(records.from("bob", "c2")), policy(QueueMode.COLLECT, 10)))
                .isEqualTo(Placement.COLLECTED_AT_HEAD);

        assertThat(waiting(lane)).containsExactly(List.of("c1", "c2"));
        assertThat(lane.queue.get(0).collect).isTrue();
        assertThat(run.cancel().isCancelled()).isFalse();
    }

    @Test
    void collectBehindAnotherRunIsQueuedNotAtTheHead() {
        // SPEC DI-3 collect: a batch that is not next has no quiet window running yet
        lane.queue.add(Pending.of(records.from("bob", "followup"), false));

        assertThat(QueueModes.place(
                        lane,
                        List.of(records.from("alice", "c1"), records.from("alice", "c2")),
                        policy(QueueMode.COLLECT, 10)))
                .isEqualTo(Placement.QUEUED);

        assertThat(waiting(lane)).containsExactly(List.of("followup"), List.of("c1", "c2"));
    }
}
