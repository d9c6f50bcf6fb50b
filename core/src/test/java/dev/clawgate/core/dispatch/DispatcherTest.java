package dev.clawgate.core.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.QueueMode;
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
    private final InMemoryStore store = new InMemoryStore();
    private final List<String> started = new CopyOnWriteArrayList<>();
    private final List<String> cancelReasons = new CopyOnWriteArrayList<>();
    private final Map<String, CountDownLatch> release = new ConcurrentHashMap<>();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();
    private final List<String> stops = new CopyOnWriteArrayList<>();
    private Dispatcher dispatcher;
    private QueueMode mode = QueueMode.FOLLOWUP;
    private Duration budget = Duration.ofMinutes(5);

    /** A runner that waits until its text is released or the run is cancelled, and marks the record done. */
    private final TurnRunner runner = handle -> {
        String text = handle.records().stream().map(r -> r.message().text()).reduce((a, b) -> a + "+" + b).orElseThrow();
        started.add(text);
        maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            CountDownLatch latch = release.computeIfAbsent(handle.record().message().text(), k -> new CountDownLatch(1));
            while (!latch.await(5, TimeUnit.MILLISECONDS)) {
                if (handle.cancel().isCancelled()) {
                    cancelReasons.add(text + ":" + handle.cancel().reason());
                    for (InboxRecord r : handle.records()) store.markInbox(r.id(), InboxState.CANCELLED, handle.cancel().reason());
                    return;
                }
            }
            store.completeTurn(handle.record().session(), handle.record().id(), "ok", InboxState.DONE);
        } finally {
            running.decrementAndGet();
        }
    };

    private void startDispatcher(int maxInFlight, int cap) {
        Dispatcher.Policy policy = new Dispatcher.Policy(r -> mode, r -> r.message().text().equals("/stop"), r -> false,
                () -> budget, cap);
        dispatcher = new Dispatcher(store, runner, (r, ran, queued) -> {
            stops.add(r.message().sender() + ":" + ran + ":" + queued);
            store.completeTurn(r.session(), r.id(), null, InboxState.DONE);
        }, policy, 100, maxInFlight, Clock.systemUTC()).start();
    }

    @AfterEach
    void close() {
        release.values().forEach(CountDownLatch::countDown);
        if (dispatcher != null) dispatcher.close(Duration.ofSeconds(2));
    }

    private InboxRecord submit(String chat, String sender, ChatType type, String text) throws InterruptedException {
        InboundMessage m = new InboundMessage(null, "test", null, sender, null, chat, null, null, type, true, Instant.now(), text, List.of(), null);
        InboxRecord r = store.recordInbound(m, SessionKey.of(m), null, Duration.ZERO).orElseThrow();
        dispatcher.submit(r);
        return r;
    }

    private void finish(String text) {
        release.computeIfAbsent(text, k -> new CountDownLatch(1)).countDown();
    }

    @Test
    void runsOfOneSessionNeverOverlapAndKeepTheirOrder() throws Exception {
        // SPEC DI-2: at most one active run per session; SPEC DI-3 followup: queued turns run in order
        startDispatcher(8, 20);
        submit("alice", "alice", ChatType.DIRECT, "one");
        submit("alice", "alice", ChatType.DIRECT, "two");
        submit("alice", "alice", ChatType.DIRECT, "three");
        await().until(() -> started.size() == 1);
        assertThat(dispatcher.status(new SessionKey("test", null, ChatType.DIRECT, "alice", null, "alice")).queued()).isEqualTo(2);
        finish("one");
        await().until(() -> started.size() == 2);
        finish("two");
        finish("three");
        await().until(() -> dispatcher.idle());
        assertThat(started).containsExactly("one", "two", "three");
        assertThat(maxRunning.get()).isEqualTo(1);
        assertThat(store.inboxCounts()).containsEntry(InboxState.DONE, 3L);
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
        assertThat(store.inbox(queuedAlice.id()).orElseThrow().state()).isEqualTo(InboxState.CANCELLED);
        finish("bob waits");
        await().until(() -> store.inbox(queuedBob.id()).orElseThrow().state() == InboxState.DONE);
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
        await().until(() -> store.inbox(q1.id()).orElseThrow().state() == InboxState.DROPPED_BY_QUEUE);
        assertThat(dispatcher.status(new SessionKey("test", null, ChatType.DIRECT, "alice", null, "alice")).queued()).isEqualTo(2);
        List.of("active", "q2", "q3").forEach(this::finish);
        await().until(() -> dispatcher.idle());
        assertThat(started).containsExactly("active", "q2", "q3");
    }

    @Test
    void recoveryRerunsUnfinishedRecordsOnceAndFailsOrExpiresTheRest() throws Exception {
        // SPEC IN-4: after a crash, records without a final state run again, at most once more
        InboundMessage fresh = InboundMessage.direct("test", null, "alice", "fresh");
        InboundMessage twice = InboundMessage.direct("test", null, "bob", "twice");
        InboundMessage old = new InboundMessage(null, "test", null, "carol", null, "carol", null, null, ChatType.DIRECT, true,
                Instant.now().minus(Duration.ofHours(2)), "old", List.of(), null);
        InboxRecord rFresh = store.recordInbound(fresh, SessionKey.of(fresh), null, Duration.ZERO).orElseThrow();
        InboxRecord rTwice = store.recordInbound(twice, SessionKey.of(twice), null, Duration.ZERO).orElseThrow();
        store.markInbox(rTwice.id(), InboxState.DISPATCHED, null);
        store.markInbox(rTwice.id(), InboxState.DISPATCHED, null);
        InboxRecord rOld = store.recordInbound(old, SessionKey.of(old), null, Duration.ZERO).orElseThrow();
        startDispatcher(8, 20);
        finish("fresh");
        assertThat(dispatcher.recover(Duration.ofHours(1), r -> true)).isEqualTo(1);
        await().until(() -> store.inbox(rFresh.id()).orElseThrow().state() == InboxState.DONE);
        assertThat(store.inbox(rTwice.id()).orElseThrow().state()).isEqualTo(InboxState.FAILED);
        assertThat(store.inbox(rOld.id()).orElseThrow().state()).isEqualTo(InboxState.EXPIRED);
        assertThat(started).containsExactly("fresh");
    }

    @Test
    void aFullBusBlocksTheSubmitterInsteadOfDropping() throws Exception {
        // SPEC DI-1: back-pressure, never a silent drop
        Dispatcher.Policy policy = new Dispatcher.Policy(r -> mode, r -> false, r -> false, () -> budget, 20);
        dispatcher = new Dispatcher(store, runner, (r, a, b) -> { }, policy, 1, 8, Clock.systemUTC());
        InboundMessage m = InboundMessage.direct("test", null, "alice", "a");
        InboxRecord r1 = store.recordInbound(m, SessionKey.of(m), null, Duration.ZERO).orElseThrow();
        InboxRecord r2 = store.recordInbound(m, SessionKey.of(m), null, Duration.ZERO).orElseThrow();
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
}
