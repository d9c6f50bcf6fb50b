package dev.clawgate.core.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.testing.InMemoryStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OutboxTest {
    private static final Instant T0 = Instant.parse("2026-01-10T12:00:00Z");
    private static final Duration MAX_AGE = Duration.ofHours(1);

    private final InMemoryStore store = new InMemoryStore(Clock.fixed(T0, ZoneOffset.UTC));
    private final Outbox outbox = new Outbox(store, Clock.fixed(T0.plus(Duration.ofMinutes(10)), ZoneOffset.UTC));

    /** A platform that records each send, and what the store said about the entry at that moment. */
    private final class Platform implements MessageAdapter {
        final List<OutboundMessage> sent = new ArrayList<>();
        final List<OutboxState> stateDuringSend = new ArrayList<>();
        DeliveryException failure;
        RuntimeException crash;

        @Override
        public MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException {
            stateDuringSend.add(store.outboxByState(OutboxState.values()).stream()
                    .filter(e -> e.turnId() == message.turnId()).findFirst().orElseThrow().state());
            if (crash != null) throw crash;
            if (failure != null) throw failure;
            sent.add(message);
            return MessageReceipt.of("platform-" + sent.size());
        }
    }

    private OutboxEntry pendingReply(String text) {
        InboundMessage m = new InboundMessage("in-" + text, "webhook", "default", "alice", "Alice", "chat-1", "th-1", null,
                ChatType.DIRECT, true, T0, "question " + text, List.of(), null);
        SessionKey session = SessionKey.of(m);
        long turn = store.recordInbound(m, session, null, Duration.ZERO).orElseThrow().id();
        return store.completeTurnWithReply(session, turn, text, InboxState.DONE,
                OutboundDraft.of(OutboundTarget.replyTo(m), text, OutboundMessage.Kind.FINAL)).orElseThrow();
    }

    private OutboxState stateOf(OutboxEntry e) {
        return entry(e).state();
    }

    private OutboxEntry entry(OutboxEntry e) {
        return store.outboxByState(OutboxState.values()).stream().filter(x -> x.id() == e.id()).findFirst().orElseThrow();
    }

    @Test
    void aDeliveredReplyIsMarkedSendingBeforeThePlatformCallAndSentWithItsReceipt() {
        // SPEC OUT-5: the intent is committed (and marked sending) before any platform I/O
        Platform platform = new Platform();
        OutboxEntry e = pendingReply("hello");

        assertThat(outbox.deliver(e, platform)).isEqualTo(OutboxState.SENT);

        assertThat(platform.stateDuringSend).containsExactly(OutboxState.SENDING);
        assertThat(platform.sent).singleElement().satisfies(m -> {
            assertThat(m.text()).isEqualTo("hello");
            assertThat(m.kind()).isEqualTo(OutboundMessage.Kind.FINAL);
            assertThat(m.turnId()).isEqualTo(e.turnId());
            assertThat(m.target()).isEqualTo(new OutboundTarget("webhook", "default", "chat-1", "th-1", "in-hello"));
        });
        assertThat(entry(e).state()).isEqualTo(OutboxState.SENT);
        assertThat(entry(e).receiptId()).isEqualTo("platform-1");
    }

    @Test
    void anEntryThatIsNoLongerPendingIsNeverSentAgain() {
        // SPEC OUT-12: a turn's final reply is delivered at most once
        Platform platform = new Platform();
        OutboxEntry e = pendingReply("once");
        outbox.deliver(e, platform);

        outbox.deliver(e, platform);

        assertThat(platform.sent).hasSize(1);
        assertThat(stateOf(e)).isEqualTo(OutboxState.SENT);
    }

    @Test
    void aPermanentRefusalFailsTheEntryAtOnce() {
        // SPEC OUT-5, OUT-7: errors the platform calls permanent fail at once
        Platform platform = new Platform();
        platform.failure = new DeliveryException("chat not found", true, null);
        OutboxEntry e = pendingReply("doomed");

        assertThat(outbox.deliver(e, platform)).isEqualTo(OutboxState.FAILED);

        assertThat(entry(e).state()).isEqualTo(OutboxState.FAILED);
        assertThat(entry(e).detail()).isEqualTo("chat not found");
        assertThat(entry(e).receiptId()).isNull();
    }

    @Test
    void aTransientFailureLeavesTheEntryPendingWithOneMoreAttempt() {
        // SPEC OUT-7: a transient failure is retried later, never lost
        Platform platform = new Platform();
        platform.failure = new DeliveryException("HTTP 503", false, null);
        OutboxEntry e = pendingReply("later");

        assertThat(outbox.deliver(e, platform)).isEqualTo(OutboxState.PENDING);

        assertThat(entry(e).state()).isEqualTo(OutboxState.PENDING);
        assertThat(entry(e).attempts()).isEqualTo(1);
        platform.failure = null;
        assertThat(outbox.deliver(entry(e), platform)).isEqualTo(OutboxState.SENT);
        assertThat(platform.sent).extracting(OutboundMessage::text).containsExactly("later");
    }

    @Test
    void anAdapterThatBreaksMidSendLeavesTheEntryUnknownNotPending() {
        // SPEC OUT-7: whether the platform got it is unknown, so it is not resent blindly
        Platform platform = new Platform();
        platform.crash = new IllegalStateException("socket closed half-way");
        OutboxEntry e = pendingReply("maybe");

        assertThat(outbox.deliver(e, platform)).isEqualTo(OutboxState.UNKNOWN_AFTER_SEND);

        assertThat(stateOf(e)).isEqualTo(OutboxState.UNKNOWN_AFTER_SEND);
    }

    @Test
    void recoverySendsPendingRepliesOnceAndMarksInterruptedSendsUnknownWithoutResending() {
        // SPEC OUT-7: pending entries are sent on start; sending ones become unknown_after_send and are not resent
        OutboxEntry pending = pendingReply("was pending");
        OutboxEntry interrupted = pendingReply("was sending");
        store.claimOutbox(interrupted.id()); // the process died while this one was on the wire
        Platform platform = new Platform();

        Outbox.Recovery r = outbox.recover(ch -> ch.equals("webhook") ? Optional.of(platform) : Optional.empty(), MAX_AGE);

        assertThat(r).isEqualTo(new Outbox.Recovery(1, 0, 0, 0, 1));
        assertThat(platform.sent).extracting(OutboundMessage::text).containsExactly("was pending");
        assertThat(stateOf(pending)).isEqualTo(OutboxState.SENT);
        assertThat(stateOf(interrupted)).isEqualTo(OutboxState.UNKNOWN_AFTER_SEND);
        assertThat(outbox.recover(ch -> Optional.of(platform), MAX_AGE)).isEqualTo(new Outbox.Recovery(0, 0, 0, 0, 0));
        assertThat(platform.sent).hasSize(1);
    }

    @Test
    void recoveryExpiresStaleRepliesInsteadOfSendingThem() {
        // SPEC OUT-7: entries older than outbox.max_age are not replayed but expired
        OutboxEntry stale = pendingReply("stale");
        Platform platform = new Platform();
        Outbox later = new Outbox(store, Clock.fixed(T0.plus(MAX_AGE).plusMillis(1), ZoneOffset.UTC));

        Outbox.Recovery r = later.recover(ch -> Optional.of(platform), MAX_AGE);

        assertThat(r).isEqualTo(new Outbox.Recovery(0, 0, 0, 1, 0));
        assertThat(platform.sent).isEmpty();
        assertThat(stateOf(stale)).isEqualTo(OutboxState.EXPIRED);
        assertThat(store.outboxCounts()).containsEntry(OutboxState.EXPIRED, 1L).containsEntry(OutboxState.PENDING, 0L);
    }

    @Test
    void recoveryLeavesRepliesOfChannelsThisProcessDoesNotRunPending() {
        // SPEC OUT-7: a reply waits for its own channel; nothing else may send it
        OutboxEntry e = pendingReply("elsewhere");

        Outbox.Recovery r = outbox.recover(ch -> Optional.empty(), MAX_AGE);

        assertThat(r).isEqualTo(new Outbox.Recovery(0, 0, 1, 0, 0));
        assertThat(stateOf(e)).isEqualTo(OutboxState.PENDING);
    }
}
