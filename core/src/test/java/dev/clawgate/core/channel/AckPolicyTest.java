package dev.clawgate.core.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.internal.dispatch.Dispatcher;
import dev.clawgate.core.internal.dispatch.QueuePolicy;
import dev.clawgate.core.internal.inbound.Inbox;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.testing.InMemoryStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Receive ack policies over a loopback platform with cumulative acks (SPEC IN-3). */
class AckPolicyTest {
    private static final int N = 10;
    private final InMemoryStore store = new InMemoryStore();
    private final Map<Long, Long> inboxIdOfSeq = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    private final Semaphore runPermits = new Semaphore(0);
    private final HttpClient http = HttpClient.newHttpClient();
    private Dispatcher dispatcher;
    private Inbox inbox;

    @AfterEach
    void close() {
        runPermits.release(1000);
        if (dispatcher != null) dispatcher.close(Duration.ofSeconds(2));
    }

    private void startPipeline() {
        startPipeline(false);
    }

    /** @param withReply the run ends as a durable channel's turn does: final state and reply intent in one commit */
    private void startPipeline(boolean withReply) {
        Dispatcher.Policy policy = new Dispatcher.Policy(
                r -> new QueuePolicy(QueueMode.FOLLOWUP, Duration.ZERO, 100, DropPolicy.OLD),
                r -> false,
                r -> false,
                () -> Duration.ofMinutes(1),
                (r, t) -> {},
                Duration.ZERO);
        dispatcher = new Dispatcher(
                        store,
                        handle -> {
                            runPermits.acquire();
                            if (withReply) {
                                store.outbox()
                                        .completeTurnWithReply(
                                                handle.record().session(),
                                                handle.record().id(),
                                                "ok",
                                                InboxState.DONE,
                                                OutboundDraft.of(
                                                        OutboundTarget.replyTo(
                                                                handle.record().message()),
                                                        "ok",
                                                        OutboundMessage.Kind.FINAL));
                            } else {
                                store.transcripts()
                                        .completeTurn(
                                                handle.record().session(),
                                                handle.record().id(),
                                                "ok",
                                                InboxState.DONE);
                            }
                        },
                        (r, a, b) -> {},
                        policy,
                        100,
                        8,
                        Clock.systemUTC())
                .start();
        inbox = new Inbox(store, dispatcher, SessionKey::of, Duration.ofMinutes(20));
    }

    private boolean stateOf(long seq, java.util.function.Predicate<InboxState> stage) {
        Long id = inboxIdOfSeq.get(seq);
        return id != null
                && store.inbox().find(id).map(r -> stage.test(r.state())).orElse(false);
    }

    /** One poll of the test adapter: ack what reached the stage, take the new updates into the sink. */
    private void poll(FakeUpdatesPlatform platform, CumulativeAck ack, long manualOffset, int stopAfter)
            throws Exception {
        long offset = ack == null ? manualOffset : ack.offset();
        String body = http.send(
                        HttpRequest.newBuilder(URI.create(platform.url() + "?offset=" + offset))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        int taken = 0;
        for (String line : body.lines().toList()) {
            if (taken++ == stopAfter) return;
            long seq = Long.parseLong(line.substring(0, line.indexOf(' ')));
            if (ack != null) ack.received(seq);
            deliveries.computeIfAbsent(seq, k -> new AtomicInteger()).incrementAndGet();
            InboundSink.Acceptance a = inbox.accept(InboundMessage.direct("fake", "u" + seq, "alice", line));
            if (!a.duplicate()) inboxIdOfSeq.put(seq, a.inboxId());
            if (ack != null) ack.recorded(seq, a);
        }
    }

    @Test
    void afterReceiveRecordAcksOnceTheInboxCommitReturnedAndNeverBefore() throws Exception {
        // SPEC IN-3 after_receive_record (Telegram's default), SPEC IN-4
        startPipeline();
        try (FakeUpdatesPlatform platform = new FakeUpdatesPlatform(N, s -> inboxIdOfSeq.containsKey(s))) {
            CumulativeAck ack = new CumulativeAck(AckPolicy.AFTER_RECEIVE_RECORD, store, 0);
            poll(platform, ack, 0, Integer.MAX_VALUE);
            poll(platform, ack, 0, Integer.MAX_VALUE);
            assertThat(platform.acks).containsExactly(0L, (long) N);
            assertThat(platform.violations).isEmpty();
        }
    }

    private boolean hasReplyIntent(long seq) {
        Long id = inboxIdOfSeq.get(seq);
        return id != null
                && store.outbox().byState(OutboxState.values()).stream().anyMatch(e -> e.turnId() == id);
    }

    @Test
    void afterDurableSendAcksOnlyOnceTheReplyIntentCommittedWithTheTurn() throws Exception {
        // SPEC IN-3 after_durable_send, IN-4, OUT-5: the ack waits for the turn's final state, which commits with its
        // reply intent
        startPipeline(true);
        try (FakeUpdatesPlatform platform = new FakeUpdatesPlatform(N, this::hasReplyIntent)) {
            CumulativeAck ack = new CumulativeAck(AckPolicy.AFTER_DURABLE_SEND, store, 0);
            poll(platform, ack, 0, Integer.MAX_VALUE);
            await().until(() -> stateOf(0, st -> st == InboxState.DISPATCHED));
            assertThat(ack.offset()).as("dispatched is not yet durable").isZero();
            runPermits.release(3);
            await().until(() -> hasReplyIntent(2));
            assertThat(ack.offset()).isEqualTo(3);
            runPermits.release(N);
            await().until(() -> dispatcher.idle());
            poll(platform, ack, 0, Integer.MAX_VALUE);
            assertThat(platform.acks).containsExactly(0L, (long) N);
            assertThat(platform.violations).isEmpty();
        }
    }

    @Test
    void afterAgentDispatchHoldsTheOffsetAtTheFirstMessageNoRunHasTaken() throws Exception {
        // SPEC IN-3 after_agent_dispatch: the contiguous prefix that reached the stage
        startPipeline();
        try (FakeUpdatesPlatform platform =
                new FakeUpdatesPlatform(N, s -> stateOf(s, st -> st != InboxState.RECEIVED))) {
            CumulativeAck ack = new CumulativeAck(AckPolicy.AFTER_AGENT_DISPATCH, store, 0);
            poll(platform, ack, 0, Integer.MAX_VALUE);
            await().until(() -> stateOf(0, st -> st == InboxState.DISPATCHED));
            assertThat(ack.offset()).isEqualTo(1);
            poll(platform, ack, 0, Integer.MAX_VALUE);
            for (int i = 0; i < N; i++) {
                runPermits.release();
                int done = i;
                await().until(() -> ack.offset() >= Math.min(done + 2, N));
            }
            poll(platform, ack, 0, Integer.MAX_VALUE);
            assertThat(platform.acks).containsExactly(0L, 1L, (long) N);
            assertThat(platform.violations).isEmpty();
        }
    }

    @Test
    void aCrashBeforeTheAckRedeliversAtMostOnceMoreAndDedupeRunsEachMessageOnce() throws Exception {
        // SPEC IN-3: acks are idempotent; a crash between record and ack repeats it at most once; SPEC IN-1
        startPipeline();
        runPermits.release(1000);
        try (FakeUpdatesPlatform platform = new FakeUpdatesPlatform(N, s -> inboxIdOfSeq.containsKey(s))) {
            CumulativeAck beforeCrash = new CumulativeAck(AckPolicy.AFTER_RECEIVE_RECORD, store, 0);
            poll(platform, beforeCrash, 0, 6);
            CumulativeAck afterRestart = new CumulativeAck(AckPolicy.AFTER_RECEIVE_RECORD, store, platform.confirmed);
            poll(platform, afterRestart, 0, Integer.MAX_VALUE);
            poll(platform, afterRestart, 0, Integer.MAX_VALUE);
            await().until(() -> dispatcher.idle());
            assertThat(deliveries.values()).allMatch(c -> c.get() <= 2);
            assertThat(deliveries.get(0L).get()).isEqualTo(2);
            assertThat(store.inbox().counts()).containsEntry(InboxState.DONE, (long) N);
            assertThat(platform.violations).isEmpty();
        }
    }

    @Test
    void aManualAdapterOwnsItsAcksAndRedeliveriesAreCaughtByDedupe() throws Exception {
        // SPEC IN-3 manual (the default when an adapter declares none)
        assertThatThrownBy(() -> new CumulativeAck(AckPolicy.MANUAL, store, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(
                        new Channel() {
                            public String name() {
                                return "x";
                            }

                            public void start(InboundSink sink) {}

                            public void stop() {}

                            public MessageAdapter messageAdapter() {
                                return null;
                            }
                        }.ackPolicies())
                .containsExactly(AckPolicy.MANUAL);
        startPipeline();
        runPermits.release(1000);
        try (FakeUpdatesPlatform platform = new FakeUpdatesPlatform(N, s -> inboxIdOfSeq.containsKey(s))) {
            poll(platform, null, 0, Integer.MAX_VALUE);
            poll(platform, null, 0, Integer.MAX_VALUE);
            poll(platform, null, N, Integer.MAX_VALUE);
            await().until(() -> dispatcher.idle());
            assertThat(platform.acks).containsExactly(0L, 0L, (long) N);
            assertThat(store.inbox().counts()).containsEntry(InboxState.DONE, (long) N);
            assertThat(platform.violations).isEmpty();
        }
    }
}
