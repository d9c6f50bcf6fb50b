package dev.clawgate.core.internal.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.OutboxSettings;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import dev.clawgate.core.testing.InMemoryStore;
import dev.clawgate.core.testing.LoopbackAdapter;
import dev.clawgate.core.testing.LoopbackPlatform;
import dev.clawgate.core.testing.ManualClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The outbox's start-up pass (SPEC OUT-7) against a scripted platform on a loopback port. */
class OutboxRecoveryTest {
    private static final Instant T0 = Instant.parse("2026-01-10T12:00:00Z");
    private static final Set<Capability> BASIC =
            EnumSet.of(Capability.TEXT, Capability.REPLY_TO, Capability.MESSAGE_SENDING_HOOKS);

    private final ManualClock clock = new ManualClock(T0);
    private final InMemoryStore store = new InMemoryStore(clock);
    private final LoopbackPlatform platform;
    private OutboxSettings settings = OutboxSettings.defaults();
    private final Outbox outbox;
    private int nextMessage;

    OutboxRecoveryTest() throws IOException {
        platform = new LoopbackPlatform();
        outbox = new Outbox(store, clock, new Payloads(null), () -> settings, () -> 0.5);
    }

    @AfterEach
    void stop() {
        platform.close();
    }

    private LoopbackAdapter adapter(Set<Capability> declared) {
        return new LoopbackAdapter(platform, declared, Duration.ofSeconds(2), 4000);
    }

    private OutboxEntry pendingReply(String text) {
        nextMessage++;
        InboundMessage m = new InboundMessage(
                "in-" + nextMessage,
                "loop",
                "default",
                "alice",
                "Alice",
                "chat-1",
                null,
                null,
                ChatType.DIRECT,
                true,
                clock.instant(),
                "question " + nextMessage,
                List.of(),
                null);
        SessionKey session = SessionKey.of(m);
        long turn = store.inbox()
                .record(m, session, null, Duration.ZERO)
                .orElseThrow()
                .id();
        return store.outbox()
                .completeTurnWithReply(
                        session,
                        turn,
                        text,
                        InboxState.DONE,
                        OutboundDraft.of(OutboundTarget.replyTo(m), text, OutboundMessage.Kind.FINAL))
                .orElseThrow();
    }

    /** An entry a dead process left claimed; {@code reachedPlatform} says whether its send got there first. */
    private OutboxEntry interrupted(String text, boolean reachedPlatform) {
        OutboxEntry e = pendingReply(text);
        assertThat(store.outbox().claim(e.id())).isTrue();
        if (reachedPlatform) {
            // the platform took it, then the process died before recording the receipt
            LoopbackAdapter a = adapter(BASIC);
            try {
                a.send(e.draft().message(e.turnId()), dev.clawgate.core.run.CancelToken.none());
            } catch (DeliveryException ex) {
                throw new AssertionError(ex);
            }
        }
        return e;
    }

    private OutboxState stateOf(OutboxEntry e) {
        return store.outbox().entry(e.id()).orElseThrow().state();
    }

    @Test
    void withoutReconcileAnInterruptedSendIsUnknownAndNotResent() {
        // SPEC OUT-7: no blind resend of an unknown send; it is reported
        OutboxEntry arrived = interrupted("arrived", true);
        OutboxEntry lost = interrupted("lost", false);

        OutboxRecovery.Result r = outbox.recover(c -> Optional.of(adapter(BASIC)), Pacer.NONE);

        assertThat(r.unknownAfterSend()).isEqualTo(2);
        assertThat(stateOf(arrived)).isEqualTo(OutboxState.UNKNOWN_AFTER_SEND);
        assertThat(stateOf(lost)).isEqualTo(OutboxState.UNKNOWN_AFTER_SEND);
        assertThat(platform.deliveredTexts()).containsExactly("arrived");
    }

    @Test
    void withReconcileAFoundSendIsAckedAndAMissingOneIsSent() {
        // SPEC OUT-7 reconcileUnknownSend: found → acknowledged with its receipt; proven absent → sent; no duplicate,
        // no loss
        OutboxEntry arrived = interrupted("arrived", true);
        OutboxEntry lost = interrupted("lost", false);
        LoopbackAdapter a = adapter(EnumSet.of(
                Capability.TEXT,
                Capability.REPLY_TO,
                Capability.MESSAGE_SENDING_HOOKS,
                Capability.RECONCILE_UNKNOWN_SEND));

        OutboxRecovery.Result r = outbox.recover(c -> Optional.of(a), Pacer.NONE);

        assertThat(r.reconciled()).isEqualTo(2);
        assertThat(r.unknownAfterSend()).isZero();
        assertThat(stateOf(arrived)).isEqualTo(OutboxState.SENT);
        assertThat(store.outbox().entry(arrived.id()).orElseThrow().receiptId()).isEqualTo("m-1");
        assertThat(stateOf(lost)).isEqualTo(OutboxState.SENT);
        assertThat(platform.deliveredTexts()).containsExactly("arrived", "lost");
        assertThat(platform.calls("send")).hasSize(2);
    }

    @Test
    void resendUnknownSendsOnceAndMarksItPossiblyDuplicated() {
        // SPEC OUT-7: outbox.resend_unknown = true resends once and marks possibly_duplicated
        settings = new OutboxSettings(
                settings.durability(), settings.maxAge(), true, settings.replayPerSecond(), settings.retries());
        OutboxEntry arrived = interrupted("arrived", true);

        OutboxRecovery.Result r = outbox.recover(c -> Optional.of(adapter(BASIC)), Pacer.NONE);

        assertThat(r.resentUnknown()).isEqualTo(1);
        assertThat(stateOf(arrived)).isEqualTo(OutboxState.POSSIBLY_DUPLICATED);
        assertThat(platform.deliveredTexts()).containsExactly("arrived", "arrived");
        outbox.recover(c -> Optional.of(adapter(BASIC)), Pacer.NONE);
        assertThat(platform.calls("send")).as("resent once, never again").hasSize(2);
    }

    @Test
    void pendingRepliesOlderThanMaxAgeExpireAndTheRestAreSent() {
        // SPEC OUT-7: stale replies are not replayed
        OutboxEntry stale = pendingReply("stale");
        clock.advance(Duration.ofMinutes(50));
        OutboxEntry fresh = pendingReply("fresh");
        clock.advance(Duration.ofMinutes(20));

        OutboxRecovery.Result r = outbox.recover(c -> Optional.of(adapter(BASIC)), Pacer.NONE);

        assertThat(r.expired()).isEqualTo(1);
        assertThat(r.sent()).isEqualTo(1);
        assertThat(stateOf(stale)).isEqualTo(OutboxState.EXPIRED);
        assertThat(stateOf(fresh)).isEqualTo(OutboxState.SENT);
        assertThat(platform.deliveredTexts()).containsExactly("fresh");
    }

    @Test
    void aBacklogIsReplayedAtThePacedRatePerChannel() {
        // SPEC OUT-7: replays at start are paced
        for (int i = 0; i < 5; i++) pendingReply("backlog " + i);
        List<Duration> waits = new ArrayList<>();
        Pacer pacer = new Pacer(2, clock, d -> {
            waits.add(d);
            clock.advance(d);
        });

        outbox.recover(c -> Optional.of(adapter(BASIC)), pacer);

        assertThat(platform.deliveredTexts()).hasSize(5);
        assertThat(waits).hasSize(4).allSatisfy(w -> assertThat(w).isEqualTo(Duration.ofMillis(500)));
    }

    @Test
    void entriesOfAChannelThisProcessDoesNotRunStayPending() {
        // SPEC OUT-7: nothing is lost because its channel is down at start
        OutboxEntry e = pendingReply("later");
        OutboxRecovery.Result r = outbox.recover(c -> Optional.empty(), Pacer.NONE);
        assertThat(r.stillPending()).isEqualTo(1);
        assertThat(stateOf(e)).isEqualTo(OutboxState.PENDING);
    }

    @Test
    void anOperatorResendOfAnUnknownEntryEndsPossiblyDuplicatedAndIsNotExpiredByAge() {
        // SPEC OUT-7: `clawgate outbox resend`
        OutboxEntry e = interrupted("resend me", false);
        outbox.recover(c -> Optional.of(adapter(BASIC)), Pacer.NONE);
        clock.advance(Duration.ofHours(3));

        outbox.resend(e.id());
        outbox.recover(c -> Optional.of(adapter(BASIC)), Pacer.NONE);

        assertThat(stateOf(e)).isEqualTo(OutboxState.POSSIBLY_DUPLICATED);
        assertThat(platform.deliveredTexts()).containsExactly("resend me");
        assertThatThrownBy(() -> outbox.resend(e.id())).hasMessageContaining("possibly_duplicated");
        assertThatThrownBy(() -> outbox.resend(999)).hasMessageContaining("no outbox entry 999");
    }

    @Test
    void anOperatorResendOfAFailedEntryEndsSent() {
        // SPEC OUT-7
        OutboxEntry e = pendingReply("once failed");
        store.outbox().claim(e.id());
        store.outbox().update(e.id(), new OutboxUpdate(OutboxState.FAILED, List.of(), "permanent: HTTP 403", 0, null));
        outbox.resend(e.id());
        outbox.retryDue(c -> Optional.of(adapter(BASIC)), Pacer.NONE);
        assertThat(stateOf(e)).isEqualTo(OutboxState.SENT);
    }
}
