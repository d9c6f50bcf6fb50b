package dev.clawgate.core.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.internal.run.Dispatching;
import dev.clawgate.core.internal.run.ReceiptListener;
import dev.clawgate.core.internal.run.TurnRunner;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.testing.InMemoryStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DispatcherTest {
    /** How far the store's clock is behind real time: records written meanwhile look that old. */
    private volatile Duration storeLag = Duration.ZERO;

    private final InMemoryStore store = new InMemoryStore(new java.time.Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.now().minus(storeLag);
        }
    });
    private final List<String> started = new CopyOnWriteArrayList<>();
    private final List<String> cancelReasons = new CopyOnWriteArrayList<>();
    private final Map<String, CountDownLatch> release = new ConcurrentHashMap<>();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();
    private final List<String> stops = new CopyOnWriteArrayList<>();
    private Dispatcher dispatcher;
    private QueueMode mode = QueueMode.FOLLOWUP;
    private DropPolicy drop = DropPolicy.OLD;
    private Duration quiet = Duration.ofMillis(50);
    private Duration noticeAfter = Duration.ZERO;
    private Duration budget = Duration.ofMinutes(5);
    private final List<String> notices = new CopyOnWriteArrayList<>();
    private final List<String> steered = new CopyOnWriteArrayList<>();
    private final List<List<String>> droppedSummaries = new CopyOnWriteArrayList<>();

    /** A runner that waits until its text is released or the run is cancelled, and marks the record done. */
    private final TurnRunner runner = handle -> {
        String text = handle.records().stream()
                .map(r -> r.message().text())
                .reduce((a, b) -> a + "+" + b)
                .orElseThrow();
        started.add(text);
        droppedSummaries.add(handle.droppedSummaries());
        maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            CountDownLatch latch =
                    release.computeIfAbsent(handle.record().message().text(), k -> new CountDownLatch(1));
            while (!latch.await(5, TimeUnit.MILLISECONDS)) {
                for (InboxRecord r : handle.steer().drain()) {
                    steered.add(r.message().text());
                    store.inbox().mark(r.id(), InboxState.MERGED, "steered");
                }
                if (handle.cancel().isCancelled()) {
                    cancelReasons.add(text + ":" + handle.cancel().reason());
                    for (InboxRecord r : handle.records())
                        store.inbox()
                                .mark(
                                        r.id(),
                                        InboxState.CANCELLED,
                                        handle.cancel().reason());
                    return;
                }
            }
            store.transcripts()
                    .completeTurn(handle.record().session(), handle.record().id(), "ok", InboxState.DONE);
        } finally {
            running.decrementAndGet();
        }
    };

    /** Records admitted to a session, in order (SPEC RP-5: the channel shows receipt then). */
    private final List<String> admitted = new CopyOnWriteArrayList<>();

    private void startDispatcher(int maxInFlight, int cap) {
        Dispatcher.Policy policy = new Dispatcher.Policy(
                r -> new QueuePolicy(mode, quiet, cap, drop),
                r -> r.message().text().equals("/stop"),
                r -> false,
                () -> budget,
                (r, text) -> notices.add(r.message().text() + ":" + text),
                noticeAfter);
        ReceiptListener recording = new ReceiptListener() {
            @Override
            public void received(InboxRecord record) {
                admitted.add(record.message().text());
            }
        };
        dispatcher = new Dispatcher(
                        store,
                        runner,
                        Dispatching.BY_DISPATCHER,
                        recording,
                        (r, ran, queued) -> {
                            stops.add(r.message().sender() + ":" + ran + ":" + queued);
                            store.transcripts().completeTurn(r.session(), r.id(), null, InboxState.DONE);
                        },
                        policy,
                        100,
                        maxInFlight,
                        Clock.systemUTC())
                .start();
    }

    @AfterEach
    void close() {
        release.values().forEach(CountDownLatch::countDown);
        if (dispatcher != null) dispatcher.close(Duration.ofSeconds(2));
    }

    private InboxRecord submit(String chat, String sender, ChatType type, String text) throws InterruptedException {
        InboundMessage m = new InboundMessage(
                null, "test", null, sender, null, chat, null, null, type, true, Instant.now(), text, List.of(), null);
        InboxRecord r =
                store.inbox().record(m, SessionKey.of(m), null, Duration.ZERO).orElseThrow();
        dispatcher.submit(r);
        return r;
    }

    private void finish(String text) {
        release.computeIfAbsent(text, k -> new CountDownLatch(1)).countDown();
    }

    @Test
    void aRecordOfASessionAnotherNodeRunsIsHandedThereAndNotRunHere() throws Exception {
        // SPEC OP-2, DI-1: one run per session across the cluster; the owner node runs it
        startDispatcher(8, 20);
        List<Long> handedOff = new CopyOnWriteArrayList<>();
        dispatcher.ownership(r -> {
            handedOff.add(r.id());
            return List.of();
        });
        InboxRecord r = submit("alice", "alice", ChatType.DIRECT, "elsewhere");
        assertThat(handedOff).containsExactly(r.id());
        dispatcher.submitHere(r);
        await().until(() -> started.size() == 1);
        assertThat(started).containsExactly("elsewhere");
        finish("elsewhere");
        await().until(() -> dispatcher.idle());
    }

    @Test
    void aSessionTakenOverRunsWhatItsDeadNodeLeftOnceMoreAndFailsWhatRanTwice() throws Exception {
        // SPEC OP-2, IN-4: a dead node's unfinished records run again here, at most once more, in order
        startDispatcher(8, 20);
        InboundMessage left = new InboundMessage(
                null,
                "test",
                null,
                "bob",
                null,
                "bob",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "left",
                List.of(),
                null);
        InboxRecord cut = store.inbox()
                .record(left, SessionKey.of(left), null, Duration.ZERO)
                .orElseThrow();
        InboxRecord twice = store.inbox()
                .record(left, SessionKey.of(left), null, Duration.ZERO)
                .orElseThrow();
        store.inbox().mark(twice.id(), InboxState.DISPATCHED, null);
        store.inbox().mark(twice.id(), InboxState.DISPATCHED, null);
        InboxRecord twiceNow = store.inbox().find(twice.id()).orElseThrow();
        assertThat(dispatcher.rerun(List.of(twiceNow, cut), Duration.ofHours(1)))
                .isEqualTo(1);
        await().until(() -> started.size() == 1);
        assertThat(store.inbox().find(twice.id()).orElseThrow().state()).isEqualTo(InboxState.FAILED);
        finish("left");
        await().until(() -> dispatcher.idle());
        assertThat(started).containsExactly("left");
    }

    @Test
    void runsOfOneSessionNeverOverlapAndKeepTheirOrder() throws Exception {
        // SPEC DI-2: at most one active run per session; SPEC DI-3 followup: queued turns run in order
        startDispatcher(8, 20);
        submit("alice", "alice", ChatType.DIRECT, "one");
        submit("alice", "alice", ChatType.DIRECT, "two");
        submit("alice", "alice", ChatType.DIRECT, "three");
        await().until(() -> started.size() == 1);
        assertThat(dispatcher
                        .status(new SessionKey("test", null, ChatType.DIRECT, "alice", null, "alice"))
                        .queued())
                .isEqualTo(2);
        finish("one");
        await().until(() -> started.size() == 2);
        finish("two");
        finish("three");
        await().until(() -> dispatcher.idle());
        assertThat(started).containsExactly("one", "two", "three");
        assertThat(maxRunning.get()).isEqualTo(1);
        assertThat(store.inbox().counts()).containsEntry(InboxState.DONE, 3L);
    }

    @Test
    void aMessageWaitingBehindARunIsReportedReceivedAtOnceAndAStopIsNot() throws Exception {
        // SPEC RP-5: receipt (👀) is shown when the message is admitted, not when its turn starts
        startDispatcher(8, 20);
        submit("alice", "alice", ChatType.DIRECT, "one");
        await().until(() -> started.size() == 1);
        submit("alice", "alice", ChatType.DIRECT, "two");
        await().until(() -> admitted.contains("two"));
        assertThat(started).containsExactly("one");
        submit("alice", "alice", ChatType.DIRECT, "/stop");
        await().until(() -> stops.size() == 1);
        assertThat(admitted).containsExactly("one", "two");
    }

    @Test
    void differentSessionsRunTogetherUpToTheGlobalLimit() throws Exception {
        // SPEC DI-2: global in-flight limit, no per-channel cap
        startDispatcher(3, 20);
        for (int i = 0; i < 6; i++) submit("u" + i, "u" + i, ChatType.DIRECT, "m" + i);
        await().until(() -> running.get() == 3);
        assertThat(dispatcher.activeRuns()).isEqualTo(6);
        for (int i = 0; i < 6; i++) finish("m" + i);
        await().until(() -> dispatcher.idle());
        assertThat(maxRunning.get()).isEqualTo(3);
        assertThat(started).hasSize(6);
    }

    @Test
    void interruptCancelsTheActiveRunOfTheSameScopeAndRunsTheNewestWithTheQueuedOnes() throws Exception {
        // SPEC DI-3 interrupt, SPEC DI-4 scope
        mode = QueueMode.INTERRUPT;
        startDispatcher(8, 20);
        submit("alice", "alice", ChatType.DIRECT, "first");
        await().until(() -> started.size() == 1);
        submit("alice", "alice", ChatType.DIRECT, "second");
        await().until(() -> started.size() == 2);
        finish("second");
        await().until(() -> dispatcher.idle());
        assertThat(cancelReasons).containsExactly("first:" + RunHandle.REASON_INTERRUPT);
        assertThat(started).containsExactly("first", "second");
    }

    @Test
    void interruptFromAnotherMemberOfAGroupQueuesInsteadOfCancelling() throws Exception {
        // SPEC DI-4: runs in different scopes never cancel each other
        mode = QueueMode.INTERRUPT;
        startDispatcher(8, 20);
        submit("room", "alice", ChatType.GROUP, "alice asks");
        await().until(() -> started.size() == 1);
        submit("room", "bob", ChatType.GROUP, "bob asks");
        assertThat(cancelReasons).isEmpty();
        finish("alice asks");
        await().until(() -> started.size() == 2);
        finish("bob asks");
        await().until(() -> dispatcher.idle());
        assertThat(started).containsExactly("alice asks", "bob asks");
        assertThat(cancelReasons).isEmpty();
    }

    @Test
    void stopCancelsTheScopesActiveRunAndQueuedMessagesButNotOtherScopes() throws Exception {
        // SPEC DI-5
        startDispatcher(8, 20);
        submit("room", "alice", ChatType.GROUP, "long task");
        await().until(() -> started.size() == 1);
        InboxRecord queuedAlice = submit("room", "alice", ChatType.GROUP, "alice again");
        InboxRecord queuedBob = submit("room", "bob", ChatType.GROUP, "bob waits");
        submit("room", "alice", ChatType.GROUP, "/stop");
        await().until(() -> stops.size() == 1);
        assertThat(stops).containsExactly("alice:true:1");
        await().until(() -> started.size() == 2);
        assertThat(started).containsExactly("long task", "bob waits");
        assertThat(cancelReasons).containsExactly("long task:" + RunHandle.REASON_STOP);
        assertThat(store.inbox().find(queuedAlice.id()).orElseThrow().state()).isEqualTo(InboxState.CANCELLED);
        finish("bob waits");
        await().until(() -> store.inbox().find(queuedBob.id()).orElseThrow().state() == InboxState.DONE);
    }

    @Test
    void stopWithNothingRunningCancelsNothing() throws Exception {
        // SPEC DI-5
        startDispatcher(8, 20);
        submit("alice", "alice", ChatType.DIRECT, "/stop");
        await().until(() -> stops.size() == 1);
        assertThat(stops).containsExactly("alice:false:0");
        assertThat(started).isEmpty();
    }

    @Test
    void aRunOverItsTimeBudgetIsCancelledAsTimedOut() throws Exception {
        // SPEC DI-6
        budget = Duration.ofMillis(100);
        startDispatcher(8, 20);
        submit("alice", "alice", ChatType.DIRECT, "slow");
        await().atMost(Duration.ofSeconds(5)).until(() -> cancelReasons.size() == 1);
        assertThat(cancelReasons).containsExactly("slow:" + RunHandle.REASON_TIMEOUT);
    }

    @Test
    void aQueueOverItsCapDropsTheOldestAndRecordsIt() throws Exception {
        // SPEC DI-3: per-session cap; no flood grows memory without bound
        startDispatcher(8, 2);
        submit("alice", "alice", ChatType.DIRECT, "active");
        await().until(() -> started.size() == 1);
        InboxRecord q1 = submit("alice", "alice", ChatType.DIRECT, "q1");
        submit("alice", "alice", ChatType.DIRECT, "q2");
        submit("alice", "alice", ChatType.DIRECT, "q3");
        await().until(() -> store.inbox().find(q1.id()).orElseThrow().state() == InboxState.DROPPED_BY_QUEUE);
        assertThat(dispatcher
                        .status(new SessionKey("test", null, ChatType.DIRECT, "alice", null, "alice"))
                        .queued())
                .isEqualTo(2);
        List.of("active", "q2", "q3").forEach(this::finish);
        await().until(() -> dispatcher.idle());
        assertThat(started).containsExactly("active", "q2", "q3");
    }

    @Test
    void recoveryRerunsUnfinishedRecordsOnceAndFailsOrExpiresTheRest() throws Exception {
        // SPEC IN-4: after a crash, records without a final state run again, at most once more
        InboundMessage fresh = InboundMessage.direct("test", null, "alice", "fresh");
        InboundMessage twice = InboundMessage.direct("test", null, "bob", "twice");
        // the platform's timestamp says nothing: what counts is when the gateway recorded it
        InboundMessage old = new InboundMessage(
                null,
                "test",
                null,
                "carol",
                null,
                "carol",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "old",
                List.of(),
                null);
        InboundMessage skewed = new InboundMessage(
                null,
                "test",
                null,
                "dave",
                null,
                "dave",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now().minus(Duration.ofDays(400)),
                "skewed",
                List.of(),
                null);
        InboxRecord rFresh = store.inbox()
                .record(fresh, SessionKey.of(fresh), null, Duration.ZERO)
                .orElseThrow();
        InboxRecord rTwice = store.inbox()
                .record(twice, SessionKey.of(twice), null, Duration.ZERO)
                .orElseThrow();
        store.inbox().mark(rTwice.id(), InboxState.DISPATCHED, null);
        store.inbox().mark(rTwice.id(), InboxState.DISPATCHED, null);
        storeLag = Duration.ofHours(2);
        InboxRecord rOld = store.inbox()
                .record(old, SessionKey.of(old), null, Duration.ZERO)
                .orElseThrow();
        storeLag = Duration.ZERO;
        InboxRecord rSkewed = store.inbox()
                .record(skewed, SessionKey.of(skewed), null, Duration.ZERO)
                .orElseThrow();
        startDispatcher(8, 20);
        finish("fresh");
        finish("skewed");
        assertThat(dispatcher.recover(Duration.ofHours(1), r -> true)).isEqualTo(2);
        await().until(() -> store.inbox().find(rFresh.id()).orElseThrow().state() == InboxState.DONE);
        await().until(() -> store.inbox().find(rSkewed.id()).orElseThrow().state() == InboxState.DONE);
        assertThat(store.inbox().find(rTwice.id()).orElseThrow().state()).isEqualTo(InboxState.FAILED);
        assertThat(store.inbox().find(rOld.id()).orElseThrow().state()).isEqualTo(InboxState.EXPIRED);
        assertThat(started).containsExactlyInAnyOrder("fresh", "skewed");
    }

    @Test
    void aFullBusBlocksTheSubmitterInsteadOfDropping() throws Exception {
        // SPEC DI-1: back-pressure, never a silent drop
        Dispatcher.Policy policy = new Dispatcher.Policy(
                r -> new QueuePolicy(mode, quiet, 20, drop),
                r -> false,
                r -> false,
                () -> budget,
                (r, t) -> {},
                Duration.ZERO);
        dispatcher = new Dispatcher(store, runner, (r, a, b) -> {}, policy, 1, 8, Clock.systemUTC());
        InboundMessage m = InboundMessage.direct("test", null, "alice", "a");
        InboxRecord r1 =
                store.inbox().record(m, SessionKey.of(m), null, Duration.ZERO).orElseThrow();
        InboxRecord r2 =
                store.inbox().record(m, SessionKey.of(m), null, Duration.ZERO).orElseThrow();
        dispatcher.submit(r1);
        AtomicReference<Boolean> secondReturned = new AtomicReference<>(false);
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                dispatcher.submit(r2);
                secondReturned.set(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.join(200);
        assertThat(secondReturned.get()).isFalse();
        assertThat(dispatcher.busDepth()).isEqualTo(1);
        dispatcher.start();
        finish("a");
        await().until(secondReturned::get);
    }

    @Test
    void steerInjectsASameScopeMessageIntoTheActiveRunInsteadOfStartingAnother() throws Exception {
        // SPEC DI-3 steer (the default)
        mode = QueueMode.STEER;
        startDispatcher(8, 20);
        submit("alice", "alice", ChatType.DIRECT, "first");
        await().until(() -> started.size() == 1);
        InboxRecord second = submit("alice", "alice", ChatType.DIRECT, "also this");
        await().until(() -> steered.contains("also this"));
        finish("first");
        await().until(() -> dispatcher.idle());
        assertThat(started).containsExactly("first");
        assertThat(store.inbox().find(second.id()).orElseThrow().state()).isEqualTo(InboxState.MERGED);
    }

    @Test
    void steerFromAnotherGroupMemberQueuesAsAFollowup() throws Exception {
        // SPEC DI-3, DI-4: steer acts only on the active run of the message's own scope
        mode = QueueMode.STEER;
        startDispatcher(8, 20);
        submit("room", "alice", ChatType.GROUP, "alice asks");
        await().until(() -> started.size() == 1);
        submit("room", "bob", ChatType.GROUP, "bob asks");
        finish("alice asks");
        await().until(() -> started.size() == 2);
        finish("bob asks");
        await().until(() -> dispatcher.idle());
        assertThat(steered).isEmpty();
        assertThat(started).containsExactly("alice asks", "bob asks");
    }

    @Test
    void aMessageSteeredAfterTheLastModelCallRunsAsAFollowup() throws Exception {
        // SPEC DI-3: if no model call follows its arrival, it runs as a followup
        mode = QueueMode.STEER;
        Dispatcher.Policy policy = new Dispatcher.Policy(
                r -> new QueuePolicy(mode, quiet, 20, drop),
                r -> false,
                r -> false,
                () -> budget,
                (r, t) -> {},
                Duration.ZERO);
        CountDownLatch inRun = new CountDownLatch(1);
        CountDownLatch offered = new CountDownLatch(1);
        dispatcher = new Dispatcher(
                        store,
                        handle -> {
                            started.add(handle.record().message().text());
                            if (handle.record().message().text().equals("first")) {
                                inRun.countDown();
                                offered.await(5, TimeUnit.SECONDS);
                            }
                            store.transcripts()
                                    .completeTurn(
                                            handle.record().session(),
                                            handle.record().id(),
                                            "ok",
                                            InboxState.DONE);
                        },
                        (r, a, b) -> {},
                        policy,
                        100,
                        8,
                        Clock.systemUTC())
                .start();
        submit("alice", "alice", ChatType.DIRECT, "first");
        inRun.await(5, TimeUnit.SECONDS);
        InboxRecord late = submit("alice", "alice", ChatType.DIRECT, "late");
        await().until(() -> dispatcher.status(late.session()).queued() == 0);
        offered.countDown();
        await().until(() -> dispatcher.idle());
        assertThat(started).containsExactly("first", "late");
        assertThat(store.inbox().find(late.id()).orElseThrow().state()).isEqualTo(InboxState.DONE);
    }

    @Test
    void collectRunsOneTurnWithEveryCollectedMessageAfterTheQuietWindow() throws Exception {
        // SPEC DI-3 collect: one turn per thread after the active run and a quiet window
        mode = QueueMode.COLLECT;
        startDispatcher(8, 20);
        submit("alice", "alice", ChatType.DIRECT, "busy");
        await().until(() -> started.size() == 1);
        submit("alice", "alice", ChatType.DIRECT, "c1");
        submit("alice", "alice", ChatType.DIRECT, "c2");
        InboxRecord last = submit("alice", "alice", ChatType.DIRECT, "c3");
        // the bus hands records over asynchronously: all three wait before the active run ends
        await().until(() -> dispatcher.status(last.session()).queued() == 3);
        finish("busy");
        finish("c3");
        await().until(() -> dispatcher.idle());
        assertThat(started).containsExactly("busy", "c1+c2+c3");
    }

    @Test
    void aCapOfThreeWithFiveQueuedDropsTheOldestSilentlyUnderOld() throws Exception {
        // SPEC DI-3 cap and drop = old
        drop = DropPolicy.OLD;
        List<InboxRecord> queued = fillQueueOfFive();
        assertThat(states(queued))
                .containsExactly(
                        InboxState.DROPPED_BY_QUEUE,
                        InboxState.DROPPED_BY_QUEUE,
                        InboxState.RECEIVED,
                        InboxState.RECEIVED,
                        InboxState.RECEIVED);
        drainAll("q3", "q4", "q5");
        assertThat(started).containsExactly("active", "q3", "q4", "q5");
        assertThat(notices).isEmpty();
        assertThat(droppedSummaries.get(1)).isEmpty();
    }

    @Test
    void aCapOfThreeWithFiveQueuedRefusesTheNewestAndTellsTheSenderUnderNew() throws Exception {
        // SPEC DI-3 cap and drop = new
        drop = DropPolicy.NEW;
        List<InboxRecord> queued = fillQueueOfFive();
        assertThat(states(queued))
                .containsExactly(
                        InboxState.RECEIVED,
                        InboxState.RECEIVED,
                        InboxState.RECEIVED,
                        InboxState.DROPPED_BY_QUEUE,
                        InboxState.DROPPED_BY_QUEUE);
        await().until(() -> notices.size() == 2);
        assertThat(notices)
                .allMatch(n -> n.startsWith("q4:") || n.startsWith("q5:"))
                .allMatch(n -> n.contains("not queued"));
        drainAll("q1", "q2", "q3");
        assertThat(started).containsExactly("active", "q1", "q2", "q3");
    }

    @Test
    void aCapOfThreeWithFiveQueuedHandsSummariesOfTheDroppedToTheNextTurnUnderSummarize() throws Exception {
        // SPEC DI-3 cap and drop = summarize
        drop = DropPolicy.SUMMARIZE;
        fillQueueOfFive();
        drainAll("q3", "q4", "q5");
        assertThat(started).containsExactly("active", "q3", "q4", "q5");
        assertThat(droppedSummaries.get(1)).containsExactly("alice: q1", "alice: q2");
        assertThat(droppedSummaries.get(2)).isEmpty();
    }

    @Test
    void aSenderWaitingInTheQueueIsToldOncePerRun() throws Exception {
        // SPEC DI-3: a sender whose message waits is told it is queued (once per run)
        noticeAfter = Duration.ofMillis(100);
        startDispatcher(8, 20);
        submit("alice", "alice", ChatType.DIRECT, "active");
        await().until(() -> started.size() == 1);
        submit("alice", "alice", ChatType.DIRECT, "w1");
        submit("alice", "alice", ChatType.DIRECT, "w2");
        await().until(() -> notices.size() == 1);
        assertThat(notices.get(0)).startsWith("w1:").contains("next");
        drainAll("active", "w1", "w2");
        assertThat(notices).hasSize(1);
    }

    private List<InboxRecord> fillQueueOfFive() throws Exception {
        startDispatcher(8, 3);
        submit("alice", "alice", ChatType.DIRECT, "active");
        await().until(() -> started.size() == 1);
        List<InboxRecord> queued = new java.util.ArrayList<>();
        for (int i = 1; i <= 5; i++) queued.add(submit("alice", "alice", ChatType.DIRECT, "q" + i));
        await().until(() -> dispatcher.status(queued.get(0).session()).queued() == 3);
        return queued;
    }

    private List<InboxState> states(List<InboxRecord> records) {
        return records.stream()
                .map(r -> store.inbox().find(r.id()).orElseThrow().state())
                .toList();
    }

    private void drainAll(String... texts) {
        finish("active");
        for (String t : texts) finish(t);
        await().until(() -> dispatcher.idle());
    }

    @Test
    void deniedAndBufferedMessagesAreRecordedAndNeverStartARun() throws Exception {
        // SPEC IN-5: denied messages are recorded as denied and never reach a model; SPEC IN-6: buffered
        Dispatcher.Policy policy = new Dispatcher.Policy(
                r -> new QueuePolicy(mode, quiet, 20, drop),
                r -> false,
                r -> false,
                () -> budget,
                (r, t) -> notices.add(r.message().text() + ":" + t),
                Duration.ZERO,
                r -> switch (r.message().text()) {
                    case "stranger" -> new Admission.Deny("not on the allowlist", "Your pairing code is ABCD2345");
                    case "chatter" -> new Admission.Buffer("no mention");
                    default -> Admission.ADMIT;
                });
        dispatcher = new Dispatcher(store, runner, (r, a, b) -> {}, policy, 100, 8, Clock.systemUTC()).start();
        InboxRecord denied = submit("s", "s", ChatType.DIRECT, "stranger");
        InboxRecord buffered = submit("room", "bob", ChatType.GROUP, "chatter");
        submit("alice", "alice", ChatType.DIRECT, "welcome");
        await().until(() -> started.size() == 1);
        await().until(() -> notices.size() == 1);
        assertThat(started).containsExactly("welcome");
        assertThat(store.inbox().find(denied.id()).orElseThrow().state()).isEqualTo(InboxState.DENIED);
        assertThat(store.inbox().find(buffered.id()).orElseThrow().state()).isEqualTo(InboxState.BUFFERED);
        assertThat(notices).containsExactly("stranger:Your pairing code is ABCD2345");
        finish("welcome");
    }

    @Test
    void aBurstOfTextsIsDebouncedIntoOneTurnWhileStopStaysStandalone() throws Exception {
        // SPEC IN-2 through the dispatcher (the timeline itself is proven on a manual clock in DebouncerTest)
        Dispatcher.Policy policy = new Dispatcher.Policy(
                r -> new QueuePolicy(mode, quiet, 20, drop),
                r -> r.message().text().equals("/stop"),
                r -> false,
                () -> budget,
                (r, t) -> {},
                Duration.ZERO,
                Admission.ALL,
                channel -> 300L);
        dispatcher = new Dispatcher(
                        store, runner, (r, a, b) -> stops.add(r.message().text()), policy, 100, 8, Clock.systemUTC())
                .start();
        submit("alice", "alice", ChatType.DIRECT, "a");
        submit("alice", "alice", ChatType.DIRECT, "b");
        submit("alice", "alice", ChatType.DIRECT, "/stop");
        submit("alice", "alice", ChatType.DIRECT, "c");
        await().until(() -> started.size() == 1);
        assertThat(stops).containsExactly("/stop");
        assertThat(started).containsExactly("a+b+c");
        finish("c");
        await().until(() -> dispatcher.idle());
        assertThat(store.inbox().counts()).containsEntry(InboxState.DONE, 1L).containsEntry(InboxState.DISPATCHED, 2L);
    }
}
