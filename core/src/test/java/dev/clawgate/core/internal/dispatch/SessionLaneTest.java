package dev.clawgate.core.internal.dispatch;

import static dev.clawgate.core.internal.dispatch.LaneRecords.T0;
import static dev.clawgate.core.internal.dispatch.LaneRecords.busyWith;
import static dev.clawgate.core.internal.dispatch.LaneRecords.texts;
import static dev.clawgate.core.internal.dispatch.LaneRecords.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One session's lane, without threads or timers: what waits, in which order, and what a run and a /stop take. */
class SessionLaneTest {
    private final LaneRecords records = new LaneRecords();

    /** A quiet window that never fires: the lane only looks at whether one is set. */
    private static final class SetTimer extends CompletableFuture<Object> implements ScheduledFuture<Object> {
        @Override
        public long getDelay(TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(Delayed other) {
            return 0;
        }
    }

    private InboxRecord steer(RunHandle run, String sender, String text) {
        InboxRecord r = records.from(sender, text);
        assertThat(run.steer().offer(r, 10)).isTrue();
        return r;
    }

    /** A lane with no active run and these runs waiting, each a followup batch. */
    @SafeVarargs
    private static SessionLane waitingRuns(List<InboxRecord>... runs) {
        SessionLane lane = new SessionLane(runs[0].get(0).session());
        for (List<InboxRecord> run : runs)
            lane.queue.add(new Pending(ScopeKey.of(run.get(0).message()), null, false, run));
        return lane;
    }

    private void queue(SessionLane lane, String sender, String text) {
        lane.queue.add(Pending.of(records.from(sender, text), false));
    }

    @Test
    void aLaneIsIdleOnlyWithNoRunNoQuietWindowAndNothingWaiting() {
        // SPEC DI-2: a lane exists only while it has a run or something waiting
        InboxRecord r = records.from("alice", "hi");
        SessionLane lane = new SessionLane(r.session());
        assertThat(lane.idle()).isTrue();

        lane.queue.add(Pending.of(r, false));
        assertThat(lane.idle()).as("something waits").isFalse();
        lane.queue.clear();

        lane.quietTimer = new SetTimer();
        assertThat(lane.idle())
                .as("a collected batch waits for its quiet window")
                .isFalse();
        lane.quietTimer = null;

        lane.begin(List.of(r), T0);
        assertThat(lane.idle()).as("a run is active").isFalse();
    }

    @Test
    void aRunStartsWithItsRecordsAndTheSummariesOfWhatWasDroppedBeforeItOnce() {
        // SPEC DI-3 drop=summarize: the next run is told what the full queue dropped, and only that run
        InboxRecord a = records.from("alice", "a");
        InboxRecord b = records.from("bob", "b");
        SessionLane lane = new SessionLane(a.session());
        lane.dropped.add("carol: lost");
        lane.noticed.add("alice");

        RunHandle run = lane.begin(List.of(a, b), T0);

        assertThat(run.records()).containsExactly(a, b);
        assertThat(run.startedAt()).isEqualTo(T0);
        assertThat(run.droppedSummaries()).containsExactly("carol: lost");
        assertThat(lane.dropped).as("given to one run only").isEmpty();
        assertThat(lane.noticed).as("'queued' is told once per run").isEmpty();
        assertThat(lane.active).isSameAs(run);
        assertThat(lane.activeIn(ScopeKey.of(b.message())))
                .as("the scope is the last record's")
                .isTrue();
        assertThat(lane.activeIn(ScopeKey.of(a.message()))).isFalse();
    }

    @Test
    void anEndedRunHandsBackWhatWasSteeredButNeverSeenAheadOfEverythingQueued() {
        // SPEC DI-3: a steered message no model call saw runs as a followup, before anything queued after it
        InboxRecord running = records.from("alice", "running");
        SessionLane lane = busyWith(running);
        InboxRecord queued = records.from("bob", "queued");
        lane.queue.add(Pending.of(queued, false));
        RunHandle run = lane.active;
        InboxRecord s1 = records.from("alice", "steer-1");
        InboxRecord s2 = records.from("alice", "steer-2");
        run.steer().offer(s1, 10);
        run.steer().offer(s2, 10);

        lane.end(run);

        assertThat(lane.active).isNull();
        assertThat(lane.activeIn(ScopeKey.of(running.message()))).isFalse();
        assertThat(waiting(lane)).containsExactly(List.of("steer-1"), List.of("steer-2"), List.of("queued"));
        assertThat(lane.queue.get(0).collect).as("they run as followups").isFalse();
        assertThat(run.steer().offer(records.from("alice", "late"), 10))
                .as("the ended run takes no more")
                .isFalse();
    }

    @Test
    void stopCancelsTheScopesRunAndTakesItsSteeredAndQueuedMessagesButLeavesOtherScopes() {
        // SPEC DI-5: /stop cancels the active run of its scope and that scope's waiting messages
        InboxRecord running = records.from("alice", "running");
        SessionLane lane = busyWith(running);
        RunHandle run = lane.active;
        steer(run, "alice", "steered-alice");
        InboxRecord steeredBob = steer(run, "bob", "steered-bob");
        queue(lane, "alice", "queued-alice");
        queue(lane, "bob", "queued-bob");

        SessionLane.Stopped stopped = lane.stop(ScopeKey.of(running.message()));

        assertThat(stopped.cancelledRun()).isTrue();
        assertThat(run.cancel().reason()).isEqualTo(RunHandle.REASON_STOP);
        assertThat(texts(stopped.cancelledQueued())).containsExactly("steered-alice", "queued-alice");
        assertThat(run.steer().drain()).containsExactly(steeredBob);
        assertThat(waiting(lane)).containsExactly(List.of("queued-bob"));
    }

    @Test
    void stopOfAnotherScopeLeavesTheRunAndTakesOnlyThatScopesQueuedMessages() {
        // SPEC DI-4, DI-5: the scope is channel, chat, sender and scope id; another sender's /stop is not this run's
        SessionLane lane = busyWith(records.from("alice", "running"));
        RunHandle run = lane.active;
        InboxRecord steeredBob = steer(run, "bob", "steered-bob");
        queue(lane, "bob", "queued-bob");
        queue(lane, "alice", "queued-alice");

        SessionLane.Stopped stopped =
                lane.stop(ScopeKey.of(records.from("bob", "/stop").message()));

        assertThat(stopped.cancelledRun()).isFalse();
        assertThat(run.cancel().isCancelled()).isFalse();
        assertThat(texts(stopped.cancelledQueued())).containsExactly("queued-bob");
        assertThat(run.steer().drain())
                .as("steered into another scope's run: not this /stop's")
                .containsExactly(steeredBob);
        assertThat(waiting(lane)).containsExactly(List.of("queued-alice"));
    }

    @Test
    void stopWithNoActiveRunTakesTheScopesQueuedMessages() {
        // SPEC DI-5
        InboxRecord queued = records.from("alice", "queued");
        SessionLane lane = new SessionLane(queued.session());
        lane.queue.add(Pending.of(queued, true));

        SessionLane.Stopped stopped = lane.stop(ScopeKey.of(queued.message()));

        assertThat(stopped.cancelledRun()).isFalse();
        assertThat(stopped.cancelledQueued()).containsExactly(queued);
        assertThat(lane.queue).isEmpty();
    }

    @Test
    void queuedRecordsCountsEveryWaitingMessageAcrossBatches() {
        // SPEC DI-3: the cap counts messages, not runs
        InboxRecord a = records.from("alice", "a");
        assertThat(new SessionLane(a.session()).queuedRecords()).isZero();
        SessionLane lane = waitingRuns(List.of(a, records.from("alice", "b")), List.of(records.from("bob", "c")));
        assertThat(lane.queuedRecords()).isEqualTo(3);
    }

    @Test
    void isQueuedFindsARecordInAnyBatchByItsInboxId() {
        // SPEC DI-3: the "queued" notice goes only to a message still waiting
        InboxRecord a = records.from("alice", "a");
        InboxRecord b = records.from("alice", "b");
        InboxRecord c = records.from("alice", "c");
        SessionLane lane = waitingRuns(List.of(a), List.of(b));
        assertThat(lane.isQueued(a)).isTrue();
        assertThat(lane.isQueued(b)).isTrue();
        assertThat(lane.isQueued(c)).isFalse();
    }

    @Test
    void anInterruptingMessageJoinsItsScopesWaitingBatchOrRunsNext() {
        // SPEC DI-3 interrupt: the newest message runs next, carrying the same scope's queued ones with it
        InboxRecord bob = records.from("bob", "bob");
        InboxRecord alice1 = records.from("alice", "alice-1");
        SessionLane lane = new SessionLane(bob.session());
        lane.queue.add(Pending.of(bob, false));

        lane.enqueueMerged(alice1, ScopeKey.of(alice1.message()));
        assertThat(waiting(lane))
                .as("no batch of alice's: hers runs first")
                .containsExactly(List.of("alice-1"), List.of("bob"));

        InboxRecord alice2 = records.from("alice", "alice-2");
        lane.enqueueMerged(alice2, ScopeKey.of(alice2.message()));
        assertThat(waiting(lane)).containsExactly(List.of("alice-1", "alice-2"), List.of("bob"));
    }

    @Test
    void aCollectedMessageJoinsTheWaitingCollectedBatchOfItsThreadOnly() {
        // SPEC DI-3 collect: one batch per thread; a followup waiting is not a batch to join
        InboxRecord followup = records.in("alice", "t1", null, "followup");
        SessionLane lane = new SessionLane(followup.session());
        lane.queue.add(Pending.of(followup, false));

        Pending first = lane.enqueueCollected(records.in("alice", "t1", null, "c1"));
        Pending second = lane.enqueueCollected(records.in("bob", "t1", null, "c2"));
        Pending other = lane.enqueueCollected(records.in("alice", "t2", null, "c3"));
        Pending main = lane.enqueueCollected(records.in("alice", null, null, "c4"));
        Pending main2 = lane.enqueueCollected(records.in("bob", null, null, "c5"));

        assertThat(second).isSameAs(first);
        assertThat(other).isNotSameAs(first);
        assertThat(main2).isSameAs(main).isNotSameAs(other);
        assertThat(first.collect).isTrue();
        assertThat(waiting(lane))
                .containsExactly(List.of("followup"), List.of("c1", "c2"), List.of("c3"), List.of("c4", "c5"));
    }

    @Test
    void removeOldestTakesTheHeadRecordAndDropsABatchItEmpties() {
        // SPEC DI-3 drop=old: the oldest waiting message goes first
        InboxRecord a = records.from("alice", "a");
        InboxRecord b = records.from("alice", "b");
        SessionLane lane = waitingRuns(List.of(a, b), List.of(records.from("bob", "c")));

        assertThat(lane.removeOldest()).isEqualTo(a);
        assertThat(waiting(lane)).containsExactly(List.of("b"), List.of("c"));
        assertThat(lane.removeOldest()).isEqualTo(b);
        assertThat(waiting(lane)).containsExactly(List.of("c"));
    }

    @Test
    void removeTakesOneRecordWhereverItWaitsAndDropsABatchItEmpties() {
        // SPEC DI-3 drop=new: the newest message is refused wherever the queue mode put it
        InboxRecord a = records.from("alice", "a");
        InboxRecord b = records.from("alice", "b");
        InboxRecord c = records.from("bob", "c");
        SessionLane lane = waitingRuns(List.of(a, b), List.of(c), List.of(records.from("bob", "d")));

        lane.remove(b);
        assertThat(waiting(lane)).containsExactly(List.of("a"), List.of("c"), List.of("d"));
        lane.remove(c);
        assertThat(waiting(lane)).containsExactly(List.of("a"), List.of("d"));
        lane.remove(records.from("carol", "not queued"));
        assertThat(waiting(lane)).containsExactly(List.of("a"), List.of("d"));
    }

    @Test
    void aScopeKeyIsChannelChatSenderAndScopeId() {
        // SPEC DI-4: the interruption scope and its string form for logs
        InboxRecord plain = records.from("alice", "a");
        InboxRecord scoped = records.in("alice", null, "topic", "b");
        assertThat(ScopeKey.of(plain.message())).isEqualTo(new ScopeKey("test", "room", "alice", null));
        assertThat(ScopeKey.of(plain.message()).display()).isEqualTo("test_room_alice");
        assertThat(ScopeKey.of(scoped.message()).display()).isEqualTo("test_room_alice_topic");
        assertThat(ScopeKey.of(scoped.message())).isNotEqualTo(ScopeKey.of(plain.message()));
    }

    @Test
    void aPendingRunOfOneRecordTakesItsScopeAndThread() {
        // SPEC DI-3, DI-4
        InboxRecord r = records.in("alice", "t1", "topic", "a");
        Pending p = Pending.of(r, true);
        assertThat(p.scope).isEqualTo(ScopeKey.of(r.message()));
        assertThat(p.thread).isEqualTo("t1");
        assertThat(p.collect).isTrue();
        assertThat(p.records).containsExactly(r);
        assertThat(p.sameThread(records.in("bob", "t1", null, "b"))).isTrue();
        assertThat(p.sameThread(records.in("alice", "t2", "topic", "c"))).isFalse();
        assertThat(p.sameThread(records.from("alice", "d"))).isFalse();
    }
}
