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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every admitted message's receipt (SPEC RP-5) settles with its final inbox state (IN-4), as the dispatcher tells the
 * runner: at once for messages that leave without a turn, at the end of the turn for the messages that turn answers.
 */
class ReceiptsTest {
    private final InMemoryStore store = new InMemoryStore();
    private final Map<String, CountDownLatch> release = new ConcurrentHashMap<>();
    /** The final state a run gives its lead record, by the lead's text; DONE when not named. */
    private final Map<String, InboxState> outcome = new ConcurrentHashMap<>();
    /** Texts the inbound hook drops. */
    private final List<String> hookDrops = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final Map<String, InboxState> settled = new ConcurrentHashMap<>();
    private final Map<String, Integer> settledTimes = new ConcurrentHashMap<>();
    private final List<String> admitted = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<String> started = new java.util.concurrent.CopyOnWriteArrayList<>();
    private Dispatcher dispatcher;
    private QueueMode mode = QueueMode.FOLLOWUP;
    private DropPolicy drop = DropPolicy.OLD;
    private long debounceMs = 0;

    /**
     * Like the turn pipeline: drops what the hook drops, merges the rest into the last kept one, takes steered
     * messages.
     */
    private final TurnRunner runner = new TurnRunner() {
        @Override
        public void run(RunHandle handle) throws InterruptedException {
            List<InboxRecord> kept = handle.records().stream()
                    .filter(r -> {
                        if (!hookDrops.contains(r.message().text())) return true;
                        store.inbox().mark(r.id(), InboxState.DROPPED_BY_HOOK, "hook");
                        return false;
                    })
                    .toList();
            if (kept.isEmpty()) return;
            InboxRecord lead = kept.getLast();
            started.add(lead.message().text());
            for (InboxRecord r : kept.subList(0, kept.size() - 1))
                store.inbox().mark(r.id(), InboxState.MERGED, "into " + lead.id());
            CountDownLatch latch = release.computeIfAbsent(lead.message().text(), k -> new CountDownLatch(1));
            while (!latch.await(5, TimeUnit.MILLISECONDS)) {
                for (InboxRecord r : handle.steer().drain())
                    store.inbox().mark(r.id(), InboxState.MERGED, "steered into " + lead.id());
                if (handle.cancel().isCancelled()) {
                    if (!RunHandle.REASON_SHUTDOWN.equals(handle.cancel().reason())) {
                        store.inbox()
                                .mark(
                                        lead.id(),
                                        InboxState.CANCELLED,
                                        handle.cancel().reason());
                    }
                    return;
                }
            }
            store.transcripts()
                    .completeTurn(
                            lead.session(),
                            lead.id(),
                            "ok",
                            outcome.getOrDefault(lead.message().text(), InboxState.DONE));
        }
    };

    /** What the channel would show: the dispatcher's receipt listener (SPEC RP-5). */
    private final ReceiptListener receipts = new ReceiptListener() {
        @Override
        public void received(InboxRecord record) {
            admitted.add(record.message().text());
        }

        @Override
        public void settled(InboxRecord record, InboxState state) {
            settled.put(record.message().text(), state);
            settledTimes.merge(record.message().text(), 1, Integer::sum);
        }
    };

    private void startDispatcher(int cap) {
        Dispatcher.Policy policy = new Dispatcher.Policy(
                r -> new QueuePolicy(mode, Duration.ofMillis(20), cap, drop),
                r -> r.message().text().equals("/stop"),
                r -> false,
                () -> Duration.ofMinutes(5),
                (r, text) -> {},
                Duration.ZERO,
                Admission.ALL,
                channel -> debounceMs);
        dispatcher = new Dispatcher(
                        store,
                        runner,
                        Dispatching.BY_DISPATCHER,
                        receipts,
                        (r, ran, queued) ->
                                store.transcripts().completeTurn(r.session(), r.id(), null, InboxState.DONE),
                        policy,
                        100,
                        8,
                        Clock.systemUTC())
                .start();
    }

    @AfterEach
    void close() {
        release.values().forEach(CountDownLatch::countDown);
        if (dispatcher != null) dispatcher.close(Duration.ofSeconds(2));
    }

    private InboxRecord submit(String sender, ChatType type, String text) throws InterruptedException {
        String chat = type == ChatType.GROUP ? "room" : sender;
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
    void aQueuedMessageCancelledByStopSettlesAtOnceWhileAnotherMembersRunGoesOn() throws Exception {
        // SPEC RP-5, DI-5: /stop cancels the sender's queued messages; their receipts go now, not when a later turn
        // ends
        startDispatcher(20);
        submit("alice", ChatType.GROUP, "alice asks");
        await().until(() -> started.contains("alice asks"));
        submit("bob", ChatType.GROUP, "bob waits");
        await().until(() -> admitted.contains("bob waits"));
        submit("bob", ChatType.GROUP, "/stop");
        await().until(() -> settled.containsKey("bob waits"));
        assertThat(settled).containsExactly(Map.entry("bob waits", InboxState.CANCELLED));
        assertThat(dispatcher.activeRuns()).as("alice's run is still working").isEqualTo(1);
        finish("alice asks");
        await().until(() -> settled.containsKey("alice asks"));
        assertThat(settled).containsEntry("alice asks", InboxState.DONE).doesNotContainKey("/stop");
        assertThat(admitted).doesNotContain("/stop");
    }

    @Test
    void aMessageSteeredIntoARunTakesThatRunsOutcomeWhenItEnds() throws Exception {
        // SPEC RP-5, DI-3 steer (inbox merged into turn T): the receipt follows T, settled when T ends
        mode = QueueMode.STEER;
        outcome.put("first", InboxState.FAILED);
        startDispatcher(20);
        submit("alice", ChatType.DIRECT, "first");
        await().until(() -> started.contains("first"));
        InboxRecord steered = submit("alice", ChatType.DIRECT, "and this");
        await().until(() -> store.inbox().find(steered.id()).orElseThrow().state() == InboxState.MERGED);
        assertThat(settled).isEmpty();
        finish("first");
        await().until(() -> settled.size() == 2);
        assertThat(settled).containsEntry("first", InboxState.FAILED).containsEntry("and this", InboxState.FAILED);
        assertThat(started).containsExactly("first");
    }

    @Test
    void aDebouncedBatchSettlesEveryMessageWithTheTurnItMergedInto() throws Exception {
        // SPEC RP-5, IN-2 (a debounced batch is one turn; its earlier messages are merged into it)
        debounceMs = 50;
        startDispatcher(20);
        submit("alice", ChatType.DIRECT, "one");
        submit("alice", ChatType.DIRECT, "two");
        await().until(() -> started.contains("two"));
        finish("two");
        await().until(() -> settled.size() == 2);
        assertThat(settled).containsEntry("one", InboxState.DONE).containsEntry("two", InboxState.DONE);
    }

    @Test
    void aBatchTheInboundHookDropsEntirelySettlesAsDropped() throws Exception {
        // SPEC RP-5, IN-7: nothing will answer a dropped message, so its receipt goes
        debounceMs = 50;
        hookDrops.addAll(List.of("spam 1", "spam 2"));
        startDispatcher(20);
        submit("alice", ChatType.DIRECT, "spam 1");
        submit("alice", ChatType.DIRECT, "spam 2");
        await().until(() -> settled.size() == 2);
        assertThat(settled)
                .containsEntry("spam 1", InboxState.DROPPED_BY_HOOK)
                .containsEntry("spam 2", InboxState.DROPPED_BY_HOOK);
        assertThat(started).isEmpty();
    }

    @Test
    void theLastKeptMessageLeadsWhenTheHookDropsTheNewestOfABatch() throws Exception {
        // SPEC RP-5, IN-7, IN-2: the kept message answers the turn; the dropped one loses its receipt
        debounceMs = 50;
        hookDrops.add("spam");
        startDispatcher(20);
        submit("alice", ChatType.DIRECT, "question");
        submit("alice", ChatType.DIRECT, "spam");
        await().until(() -> started.contains("question"));
        finish("question");
        await().until(() -> settled.size() == 2);
        assertThat(settled)
                .containsEntry("question", InboxState.DONE)
                .containsEntry("spam", InboxState.DROPPED_BY_HOOK);
    }

    @Test
    void theNewestMessageAFullQueueRefusesSettlesAtOnce() throws Exception {
        // SPEC RP-5, DI-3 drop=new
        drop = DropPolicy.NEW;
        startDispatcher(1);
        submit("alice", ChatType.DIRECT, "running");
        await().until(() -> started.contains("running"));
        submit("alice", ChatType.DIRECT, "queued");
        submit("alice", ChatType.DIRECT, "refused");
        await().until(() -> settled.containsKey("refused"));
        assertThat(settled).containsExactly(Map.entry("refused", InboxState.DROPPED_BY_QUEUE));
        finish("running");
        finish("queued");
        await().until(() -> settled.size() == 3);
        assertThat(settled).containsEntry("running", InboxState.DONE).containsEntry("queued", InboxState.DONE);
    }

    @Test
    void theOldestMessageAFullQueueDropsSettlesAtOnce() throws Exception {
        // SPEC RP-5, DI-3 drop=summarize (and old): the oldest waiting message leaves the queue
        drop = DropPolicy.SUMMARIZE;
        startDispatcher(1);
        submit("alice", ChatType.DIRECT, "running");
        await().until(() -> started.contains("running"));
        submit("alice", ChatType.DIRECT, "oldest");
        submit("alice", ChatType.DIRECT, "newest");
        await().until(() -> settled.containsKey("oldest"));
        assertThat(settled).containsExactly(Map.entry("oldest", InboxState.DROPPED_BY_QUEUE));
    }

    @Test
    void aRunCutByShutdownLeavesItsReceiptForTheRestart() throws Exception {
        // SPEC RP-5, IN-4: a record without a final state runs again after the restart and settles then
        startDispatcher(20);
        submit("alice", ChatType.DIRECT, "cut");
        await().until(() -> started.contains("cut"));
        dispatcher.close(Duration.ZERO);
        await().until(() -> dispatcher.activeRuns() == 0);
        assertThat(settled).isEmpty();
    }

    @Test
    void aRecordThatExpiredBeforeTheRestartSettlesAsExpiredAndEachReceiptSettlesOnce() throws Exception {
        // SPEC RP-5, IN-4 (expired at restart)
        InboundMessage m = new InboundMessage(
                null,
                "test",
                null,
                "alice",
                null,
                "alice",
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "stale",
                List.of(),
                null);
        store.inbox().record(m, SessionKey.of(m), null, Duration.ZERO).orElseThrow();
        startDispatcher(20);
        dispatcher.recover(Duration.ofMillis(-1), r -> true);
        assertThat(settled).containsExactly(Map.entry("stale", InboxState.EXPIRED));
        submit("alice", ChatType.DIRECT, "fresh");
        await().until(() -> started.contains("fresh"));
        finish("fresh");
        await().until(() -> settled.containsKey("fresh"));
        assertThat(settledTimes).containsEntry("stale", 1).containsEntry("fresh", 1);
    }
}
