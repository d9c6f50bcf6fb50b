package dev.clawgate.core.internal.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.OutboxSettings;
import dev.clawgate.core.hook.SendingHook;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.testing.InMemoryStore;
import dev.clawgate.core.testing.LoopbackAdapter;
import dev.clawgate.core.testing.LoopbackPlatform;
import dev.clawgate.core.testing.LoopbackPlatform.Answer;
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

/**
 * The write-ahead outbox against a scripted platform on a loopback port: every outcome, every suppression reason,
 * retries on a manual clock, reconcile, receipts and the after-send hooks.
 */
class OutboxTest {
    private static final Instant T0 = Instant.parse("2026-01-10T12:00:00Z");
    private static final Set<Capability> BASIC =
            EnumSet.of(Capability.TEXT, Capability.REPLY_TO, Capability.THREAD, Capability.MESSAGE_SENDING_HOOKS);

    private final ManualClock clock = new ManualClock(T0);
    private final InMemoryStore store = new InMemoryStore(clock);
    private final LoopbackPlatform platform;
    private SendingHook hook = SendingHook.PASS;
    private OutboxSettings settings = OutboxSettings.defaults();
    private double jitterSample = 0.5;
    private final Outbox outbox;
    private int nextMessage;

    OutboxTest() throws IOException {
        platform = new LoopbackPlatform();
        outbox = new Outbox(
                store,
                clock,
                new Payloads((text, target) -> hook.onMessageSending(text, target)),
                () -> settings,
                () -> jitterSample);
    }

    @AfterEach
    void stop() {
        platform.close();
    }

    private LoopbackAdapter adapter(Set<Capability> declared) {
        return new LoopbackAdapter(platform, declared, Duration.ofMillis(400), 4000);
    }

    private LoopbackAdapter adapter(Set<Capability> declared, int textLimit) {
        return new LoopbackAdapter(platform, declared, Duration.ofMillis(400), textLimit);
    }

    private static Set<Capability> with(Capability... extra) {
        Set<Capability> s = EnumSet.copyOf(BASIC);
        s.addAll(List.of(extra));
        return s;
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
                T0,
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

    private OutboxEntry now(OutboxEntry e) {
        return store.outbox().entry(e.id()).orElseThrow();
    }

    @Test
    void theIntentIsClaimedBeforeThePlatformSeesTheSendAndTheReceiptIsStored() {
        // SPEC OUT-5 write-ahead: the platform's request arrives while the row says sending; SPEC OUT-8 receipts
        OutboxEntry e = pendingReply("hello");
        List<OutboxState> stateAtSend = new ArrayList<>();
        platform.onSend(call -> stateAtSend.add(now(e).state()));

        DeliveryOutcome outcome = outbox.deliver(e, adapter(BASIC));

        assertThat(stateAtSend).containsExactly(OutboxState.SENDING);
        assertThat(outcome).isInstanceOf(DeliveryOutcome.Sent.class);
        OutboxEntry sent = now(e);
        assertThat(sent.state()).isEqualTo(OutboxState.SENT);
        assertThat(sent.receipts()).singleElement().satisfies(r -> {
            assertThat(r.primaryId()).isEqualTo("m-1");
            assertThat(r.parts()).extracting(MessageReceipt.Part::kind).containsExactly(MessageReceipt.PartKind.TEXT);
            assertThat(r.replyToId()).isEqualTo("in-1");
            assertThat(r.raw()).contains("\"id\":\"m-1\"");
        });
        assertThat(store.outbox().replyReceipts(e.turnId())).isEqualTo(sent.receipts());
        assertThat(platform.calls("send")).singleElement().satisfies(c -> {
            assertThat(c.body().path("text").asText()).isEqualTo("hello");
            assertThat(c.body().path("reply_to").asText()).isEqualTo("in-1");
            assertThat(c.body().path("key").asText()).isEqualTo("clawgate-" + e.turnId() + "-final-0");
        });
    }

    @Test
    void anEntryAlreadyClaimedIsNeverSentAgain() {
        // SPEC OUT-12: two senders of one entry: only the claim winner talks to the platform
        OutboxEntry e = pendingReply("once");
        outbox.deliver(e, adapter(BASIC));
        DeliveryOutcome second = outbox.deliver(e, adapter(BASIC));
        assertThat(second).isInstanceOf(DeliveryOutcome.NotClaimed.class);
        assertThat(platform.deliveredTexts()).containsExactly("once");
    }

    @Test
    void aHookThatCancelsSuppressesWithItsStableReason() {
        // SPEC OUT-5 suppressed: cancelled_by_message_sending_hook, nothing reaches the platform
        hook = (text, target) -> new SendingHook.Suppress("policy");
        OutboxEntry e = pendingReply("secret plans");
        assertThat(outbox.deliver(e, adapter(BASIC)))
                .isEqualTo(new DeliveryOutcome.Suppressed(SuppressionReason.CANCELLED_BY_MESSAGE_SENDING_HOOK));
        assertThat(now(e).state()).isEqualTo(OutboxState.SUPPRESSED);
        assertThat(now(e).detail()).startsWith("cancelled_by_message_sending_hook");
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void aHookThatEmptiesTheReplySuppressesIt() {
        // SPEC OUT-5 suppressed: empty_after_message_sending_hook
        hook = (text, target) -> new SendingHook.Send("  ");
        OutboxEntry e = pendingReply("something");
        assertThat(outbox.deliver(e, adapter(BASIC)))
                .isEqualTo(new DeliveryOutcome.Suppressed(SuppressionReason.EMPTY_AFTER_MESSAGE_SENDING_HOOK));
        assertThat(now(e).detail()).isEqualTo("empty_after_message_sending_hook");
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void aHookRewriteIsWhatThePlatformGets() {
        // SPEC OUT-4 messageSendingHooks: the hook runs on the adapter's send path
        hook = (text, target) -> new SendingHook.Send(text.replace("password", "********"));
        outbox.deliver(pendingReply("the password is x"), adapter(BASIC));
        assertThat(platform.deliveredTexts()).containsExactly("the ******** is x");
    }

    @Test
    void aBlankReplyIsNoVisiblePayload() {
        // SPEC OUT-5 suppressed: no_visible_payload
        OutboxEntry e = pendingReply(" \n ");
        assertThat(outbox.deliver(e, adapter(BASIC)))
                .isEqualTo(new DeliveryOutcome.Suppressed(SuppressionReason.NO_VISIBLE_PAYLOAD));
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void aSendThePlatformAnsweredWithoutAnIdIsNotCountedAsVisible() {
        // SPEC OUT-5 suppressed: adapter_returned_no_identity
        platform.script(Answer.noIdentity());
        OutboxEntry e = pendingReply("hello");
        assertThat(outbox.deliver(e, adapter(BASIC)))
                .isEqualTo(new DeliveryOutcome.Suppressed(SuppressionReason.ADAPTER_RETURNED_NO_IDENTITY));
        assertThat(now(e).state()).isEqualTo(OutboxState.SUPPRESSED);
        assertThat(platform.calls("send")).hasSize(1);
    }

    @Test
    void theRetryPassLeavesANewEntryToItsTurnAndSendsItOnlyWhenTheTurnLeftItUntried() {
        // SPEC OUT-5, OUT-12: the turn that recorded the intent sends it; the retry pass racing it would take the
        // turn's own delivery away, so it waits OWN_DELIVERY_GRACE before it treats the entry as orphaned
        OutboxEntry e = pendingReply("mine to send");
        clock.advance(Outbox.OWN_DELIVERY_GRACE.minusSeconds(1));
        assertThat(outbox.retryDue(c -> Optional.of(adapter(BASIC)), Pacer.NONE))
                .isZero();
        assertThat(platform.calls("send")).isEmpty();
        assertThat(now(e).state()).isEqualTo(OutboxState.PENDING);

        clock.advance(Duration.ofSeconds(1));
        assertThat(outbox.retryDue(c -> Optional.of(adapter(BASIC)), Pacer.NONE))
                .isEqualTo(1);
        assertThat(platform.calls("send"))
                .singleElement()
                .satisfies(c -> assertThat(c.body().path("text").asText()).isEqualTo("mine to send"));
        assertThat(now(e).state()).isEqualTo(OutboxState.SENT);
    }

    @Test
    void aPermanentErrorFailsAtOnce() {
        // SPEC OUT-7: chat not found / bot blocked fail at once, no retry
        platform.script(Answer.status(403));
        OutboxEntry e = pendingReply("hello");
        assertThat(outbox.deliver(e, adapter(BASIC))).isInstanceOf(DeliveryOutcome.Failed.class);
        assertThat(now(e).state()).isEqualTo(OutboxState.FAILED);
        assertThat(now(e).detail()).contains("permanent").contains("HTTP 403");
        clock.advance(Duration.ofHours(1));
        assertThat(outbox.retryDue(c -> Optional.of(adapter(BASIC)), Pacer.NONE))
                .isZero();
        assertThat(platform.calls("send")).hasSize(1);
    }

    @Test
    void somePayloadsDeliveredThenAPermanentFailureIsPartialFailedWithTheirReceipts() {
        // SPEC OUT-5 partial_failed with per-payload outcomes
        platform.script(Answer.ok(), Answer.ok(), Answer.status(400));
        OutboxEntry e = pendingReply("first part\n\nsecond part\n\nthird part");
        DeliveryOutcome outcome = outbox.deliver(e, adapter(BASIC, 12));
        assertThat(outcome).isInstanceOfSatisfying(DeliveryOutcome.PartialFailed.class, p -> {
            assertThat(p.delivered()).extracting(MessageReceipt::primaryId).containsExactly("m-1", "m-2");
            assertThat(p.payloads())
                    .extracting(DeliveryOutcome.PayloadOutcome::status)
                    .containsExactly(
                            DeliveryOutcome.PayloadOutcome.Status.SENT,
                            DeliveryOutcome.PayloadOutcome.Status.SENT,
                            DeliveryOutcome.PayloadOutcome.Status.FAILED);
        });
        assertThat(now(e).state()).isEqualTo(OutboxState.PARTIAL_FAILED);
        assertThat(now(e).receipts()).hasSize(2);
        assertThat(platform.deliveredTexts()).containsExactly("first part", "second part");
    }

    @Test
    void aMixedBatchReportsEachPayloadSentSuppressedOrFailed() {
        // SPEC OUT-5 payloadOutcomes: sent, then taken without an identity (suppressed, adapter_returned_no_identity),
        // then refused
        platform.script(Answer.ok(), Answer.noIdentity(), Answer.status(403));
        OutboxEntry e = pendingReply("first part\n\nsecond part\n\nthird part");

        DeliveryOutcome outcome = outbox.deliver(e, adapter(BASIC, 12));

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        DeliveryOutcome.PartialFailed.class,
                        p -> assertThat(p.payloads())
                                .extracting(
                                        DeliveryOutcome.PayloadOutcome::status, DeliveryOutcome.PayloadOutcome::detail)
                                .containsExactly(
                                        org.assertj.core.groups.Tuple.tuple(
                                                DeliveryOutcome.PayloadOutcome.Status.SENT, null),
                                        org.assertj.core.groups.Tuple.tuple(
                                                DeliveryOutcome.PayloadOutcome.Status.SUPPRESSED,
                                                "adapter_returned_no_identity"),
                                        org.assertj.core.groups.Tuple.tuple(
                                                DeliveryOutcome.PayloadOutcome.Status.FAILED, "permanent: HTTP 403")));
        assertThat(now(e).state()).isEqualTo(OutboxState.PARTIAL_FAILED);
        assertThat(now(e).receipts()).extracting(MessageReceipt::hasIdentity).containsExactly(true, false);
        assertThat(platform.calls("send")).hasSize(3);
    }

    @Test
    void aBatchWithOnePartTakenWithoutAnIdentityIsSentAndSaysWhichPartWasSuppressed() {
        // SPEC OUT-5: sent (at least one visible message) with a per-payload suppressed outcome, recorded with the
        // entry
        platform.script(Answer.noIdentity(), Answer.ok());
        OutboxEntry e = pendingReply("first part\n\nsecond part");

        DeliveryOutcome outcome = outbox.deliver(e, adapter(BASIC, 12));

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        DeliveryOutcome.Sent.class,
                        s -> assertThat(s.payloads())
                                .extracting(DeliveryOutcome.PayloadOutcome::status)
                                .containsExactly(
                                        DeliveryOutcome.PayloadOutcome.Status.SUPPRESSED,
                                        DeliveryOutcome.PayloadOutcome.Status.SENT));
        assertThat(now(e).state()).isEqualTo(OutboxState.SENT);
        assertThat(now(e).detail()).isEqualTo("part 1 suppressed: adapter_returned_no_identity");
    }

    @Test
    void transientFailuresBackOffFiveTwentyFiveSecondsTwoAndTenMinutesThenFail() {
        // SPEC OUT-7: 5 s, 25 s, 2 min, 10 min, 5 retries at most, checked on a manual clock
        platform.script(
                Answer.status(500),
                Answer.status(502),
                Answer.status(503),
                Answer.status(500),
                Answer.status(500),
                Answer.status(500));
        OutboxEntry e = pendingReply("stubborn");
        LoopbackAdapter a = adapter(BASIC);
        List<Duration> waits = new ArrayList<>();
        DeliveryOutcome outcome = outbox.deliver(e, a);
        while (outcome instanceof DeliveryOutcome.RetryScheduled r) {
            Duration wait = Duration.between(clock.instant(), r.at());
            waits.add(wait);
            clock.advance(wait.minusMillis(1));
            assertThat(outbox.retryDue(c -> Optional.of(a), Pacer.NONE))
                    .as("not due before its time")
                    .isZero();
            clock.advance(Duration.ofMillis(1));
            outcome = outbox.deliver(now(e), a);
        }
        assertThat(waits)
                .containsExactly(
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(25),
                        Duration.ofMinutes(2),
                        Duration.ofMinutes(10),
                        Duration.ofMinutes(10));
        assertThat(outcome).isInstanceOf(DeliveryOutcome.Failed.class);
        assertThat(now(e).state()).isEqualTo(OutboxState.FAILED);
        assertThat(now(e).detail()).contains("gave up after 6 attempts");
        assertThat(platform.calls("send")).hasSize(6);
    }

    @Test
    void jitterSpreadsRetriesAndRetryAfterIsNeverUndercut() {
        // SPEC OUT-7: jitter, and never sooner than the platform's retry-after
        jitterSample = 0.0;
        platform.script(Answer.status(500));
        OutboxEntry e = pendingReply("a");
        assertThat(outbox.deliver(e, adapter(BASIC)))
                .isEqualTo(new DeliveryOutcome.RetryScheduled(T0.plusSeconds(4), "HTTP 500"));
        jitterSample = 0.999;
        platform.script(Answer.rateLimited(90));
        OutboxEntry f = pendingReply("b");
        DeliveryOutcome limited = outbox.deliver(f, adapter(BASIC));
        assertThat(limited)
                .isInstanceOfSatisfying(
                        DeliveryOutcome.RetryScheduled.class,
                        r -> assertThat(r.at()).isEqualTo(T0.plusSeconds(90)));
    }

    @Test
    void aRetryDueIsSentByTheRetryPassAndResumesAfterThePartsAlreadyDelivered() {
        // SPEC OUT-7 retry; SPEC OUT-12: the part the platform took is never sent twice
        platform.script(Answer.ok(), Answer.status(503));
        OutboxEntry e = pendingReply("part one\n\npart two\n\npart three");
        LoopbackAdapter a = adapter(BASIC, 10);
        assertThat(outbox.deliver(e, a)).isInstanceOf(DeliveryOutcome.RetryScheduled.class);
        assertThat(now(e).receipts()).hasSize(1);
        clock.advance(Duration.ofSeconds(6));
        assertThat(outbox.retryDue(c -> Optional.of(a), Pacer.NONE)).isEqualTo(1);
        assertThat(now(e).state()).isEqualTo(OutboxState.SENT);
        assertThat(platform.deliveredTexts()).containsExactly("part one", "part two", "part three");
        assertThat(platform.calls("send"))
                .extracting(c -> c.body().path("text").asText())
                .containsExactly("part one", "part two", "part two", "part three");
        assertThat(now(e).receipts()).extracting(MessageReceipt::primaryId).containsExactly("m-1", "m-2", "m-3");
    }

    @Test
    void aTimeoutWithoutReconcileIsUnknownAndNeverResent() {
        // SPEC OUT-7: an ambiguous send is reported, not resent blindly
        platform.script(Answer.keptButSlow(1500));
        OutboxEntry e = pendingReply("maybe");
        assertThat(outbox.deliver(e, adapter(BASIC))).isInstanceOf(DeliveryOutcome.UnknownAfterSend.class);
        assertThat(now(e).state()).isEqualTo(OutboxState.UNKNOWN_AFTER_SEND);
        clock.advance(Duration.ofHours(1));
        outbox.retryDue(c -> Optional.of(adapter(BASIC)), Pacer.NONE);
        assertThat(platform.calls("send")).hasSize(1);
    }

    @Test
    void aTimeoutWithReconcileFindsTheMessageAndAcksIt() {
        // SPEC OUT-7 reconcileUnknownSend: found on the platform → acknowledged, not resent
        platform.script(Answer.keptButSlow(1500));
        OutboxEntry e = pendingReply("there after all");
        DeliveryOutcome outcome = outbox.deliver(e, adapter(with(Capability.RECONCILE_UNKNOWN_SEND)));
        assertThat(outcome).isInstanceOf(DeliveryOutcome.Sent.class);
        assertThat(now(e).state()).isEqualTo(OutboxState.SENT);
        assertThat(now(e).receiptId()).isEqualTo("m-1");
        assertThat(platform.calls("lookup")).hasSize(1);
        assertThat(platform.deliveredTexts()).containsExactly("there after all");
    }

    @Test
    void aTimeoutWithReconcileThatProvesAbsenceIsRetried() {
        // SPEC OUT-7 reconcileUnknownSend: proven not sent → sent again, once
        platform.script(Answer.lostAndSlow(1500));
        OutboxEntry e = pendingReply("lost");
        LoopbackAdapter a = adapter(with(Capability.RECONCILE_UNKNOWN_SEND));
        assertThat(outbox.deliver(e, a)).isInstanceOf(DeliveryOutcome.RetryScheduled.class);
        clock.advance(Duration.ofSeconds(10));
        outbox.retryDue(c -> Optional.of(a), Pacer.NONE);
        assertThat(now(e).state()).isEqualTo(OutboxState.SENT);
        assertThat(platform.deliveredTexts()).containsExactly("lost");
    }

    @Test
    void afterSendSuccessRunsOncePerPayloadAndAfterCommitOnceAfterTheAck() {
        // SPEC OUT-10
        OutboxEntry e = pendingReply("alpha\n\nbeta");
        LoopbackAdapter a = adapter(with(Capability.AFTER_SEND_SUCCESS, Capability.AFTER_COMMIT), 6);
        outbox.deliver(e, a);
        assertThat(a.afterSendSuccess).extracting(MessageReceipt::primaryId).containsExactly("m-1", "m-2");
        assertThat(a.afterCommit).singleElement().satisfies(rs -> assertThat(rs).hasSize(2));
        outbox.deliver(e, a);
        assertThat(a.afterCommit)
                .as("a second deliver of an acked entry runs nothing")
                .hasSize(1);
    }

    @Test
    void afterHooksDoNotRunForAnAdapterThatDoesNotDeclareThem() {
        // SPEC OUT-10: only declared capabilities are used
        LoopbackAdapter a = adapter(BASIC);
        outbox.deliver(pendingReply("x"), a);
        assertThat(a.afterSendSuccess).isEmpty();
        assertThat(a.afterCommit).isEmpty();
    }

    @Test
    void aCancelBeforeTheClaimSendsNothingAndSuppressesTheEntry() {
        // SPEC OUT-11: a cancelled run's pending delivery is cancelled, not half-sent; recorded suppressed, reason
        // run_cancelled
        OutboxEntry e = pendingReply("too late");
        CancelToken cancel = new CancelToken();
        cancel.cancel("stopped by /stop");
        assertThat(outbox.deliver(e, adapter(BASIC), cancel))
                .isEqualTo(new DeliveryOutcome.Suppressed(SuppressionReason.RUN_CANCELLED));
        assertThat(now(e).state()).isEqualTo(OutboxState.SUPPRESSED);
        assertThat(now(e).detail()).isEqualTo("run_cancelled: stopped by /stop");
        assertThat(platform.calls()).isEmpty();
    }

    @Test
    void anAbortDuringTheFirstSendThatThePlatformDidNotKeepIsCancelledNotRetried() {
        // SPEC OUT-11: the abort reaches the platform request; reconcile proves nothing arrived, so the entry is
        // cancelled
        OutboxEntry e = pendingReply("cut short");
        CancelToken cancel = new CancelToken();
        platform.script(Answer.lostAndSlow(3000));
        platform.onSend(call -> cancel.cancel("stopped by /stop"));

        DeliveryOutcome outcome = outbox.deliver(e, adapter(with(Capability.RECONCILE_UNKNOWN_SEND)), cancel);

        assertThat(outcome).isEqualTo(new DeliveryOutcome.Suppressed(SuppressionReason.RUN_CANCELLED));
        assertThat(now(e).state()).isEqualTo(OutboxState.SUPPRESSED);
        assertThat(platform.calls()).extracting(LoopbackPlatform.Call::method).containsExactly("send", "lookup");
        assertThat(platform.deliveredTexts()).isEmpty();
    }

    @Test
    void anAbortDuringTheFirstSendThatThePlatformKeptIsFoundAndCountsAsSent() {
        // SPEC OUT-11, OUT-7: an abort after the request left may still have delivered: reconcile finds it, nothing is
        // resent
        OutboxEntry e = pendingReply("made it anyway");
        CancelToken cancel = new CancelToken();
        platform.script(Answer.keptButSlow(3000));
        platform.onSend(call -> cancel.cancel("stopped by /stop"));

        DeliveryOutcome outcome = outbox.deliver(e, adapter(with(Capability.RECONCILE_UNKNOWN_SEND)), cancel);

        assertThat(outcome).isInstanceOf(DeliveryOutcome.Sent.class);
        assertThat(now(e).state()).isEqualTo(OutboxState.SENT);
        assertThat(platform.deliveredTexts()).containsExactly("made it anyway");
    }

    @Test
    void anAbortDuringTheFirstSendWithoutReconcileIsReportedUnknownNeverResent() {
        // SPEC OUT-11, OUT-7: whether the aborted request arrived cannot be told: unknown_after_send, not suppressed,
        // not resent
        OutboxEntry e = pendingReply("who knows");
        CancelToken cancel = new CancelToken();
        platform.script(Answer.keptButSlow(3000));
        platform.onSend(call -> cancel.cancel("stopped by /stop"));

        assertThat(outbox.deliver(e, adapter(BASIC), cancel)).isInstanceOf(DeliveryOutcome.UnknownAfterSend.class);
        assertThat(now(e).state()).isEqualTo(OutboxState.UNKNOWN_AFTER_SEND);
        assertThat(platform.calls("send")).hasSize(1);
    }

    @Test
    void watchingARunCancelsItsWaitingEntriesOnAbortButNotOnShutdown() {
        // SPEC OUT-11: a run's retry-waiting entries are cancelled with it; a partly delivered one finishes; a shutdown
        // keeps them
        OutboxEntry waiting = pendingReply("waiting for a retry");
        OutboxEntry partly = pendingReply("partly out");
        store.outbox()
                .update(
                        partly.id(),
                        new dev.clawgate.core.store.OutboxUpdate(
                                OutboxState.PENDING, List.of(MessageReceipt.of("m-0")), "HTTP 503", 1, T0));
        CancelToken shutdownRun = new CancelToken();
        try (RunDeliveries d = outbox.watch(waiting.turnId(), shutdownRun)) {
            shutdownRun.cancel(dev.clawgate.core.run.RunHandle.REASON_SHUTDOWN);
            assertThat(d.cancel().isCancelled()).isFalse();
        }
        assertThat(now(waiting).state()).isEqualTo(OutboxState.PENDING);

        assertThat(outbox.cancelWaiting(waiting.turnId(), "stopped by /stop")).isEqualTo(1);
        assertThat(outbox.cancelWaiting(partly.turnId(), "stopped by /stop")).isZero();
        assertThat(now(waiting).state()).isEqualTo(OutboxState.SUPPRESSED);
        assertThat(now(partly).state()).isEqualTo(OutboxState.PENDING);

        CancelToken stoppedRun = new CancelToken();
        try (RunDeliveries d = outbox.watch(partly.turnId(), stoppedRun)) {
            assertThat(outbox.cancelOf(partly.turnId())).isSameAs(d.cancel());
            stoppedRun.cancel("stopped by /stop");
            assertThat(d.cancel().reason()).isEqualTo("stopped by /stop");
        }
        assertThat(outbox.cancelOf(partly.turnId()).isCancelled())
                .as("a run that ended no longer cancels its retries")
                .isFalse();
    }

    @Test
    void aSilentAskTheChannelCannotKeepIsDroppedAndRecorded() {
        // SPEC OUT-4: a missing optional capability is dropped from the payload and recorded
        OutboxEntry e = pendingReply("quiet please");
        Capabilities.Fit fit = Capabilities.fit(
                List.of(e.draft().message(e.turnId()).withOptions(new SendOptions(true, true, true, false))),
                BASIC,
                Durability.BEST_EFFORT);
        assertThat(fit.fits()).isTrue();
        assertThat(fit.dropped()).containsExactlyInAnyOrder(Capability.SILENT, Capability.NATIVE_QUOTE);
        assertThat(fit.payloads().get(0).options().silent()).isFalse();
    }

    @Test
    void whatAPayloadNeedsIsDerivedFromItNotWrittenByHand() {
        // SPEC OUT-4: one function derives the capabilities
        OutboundTarget threaded = new OutboundTarget("loop", "default", "chat", "topic-7", "in-9");
        OutboundMessage text = new OutboundMessage(threaded, "hi", OutboundMessage.Kind.FINAL, 1);
        assertThat(Capabilities.required(text))
                .containsExactlyInAnyOrder(
                        Capability.TEXT, Capability.THREAD, Capability.REPLY_TO, Capability.MESSAGE_SENDING_HOOKS);
        OutboundMessage media = new OutboundMessage(
                threaded,
                "",
                OutboundMessage.Kind.FINAL,
                1,
                List.of(new MediaRef(MediaRef.MediaKind.IMAGE, "/w/a.png")),
                new SendOptions(false, true, false, true),
                1);
        assertThat(Capabilities.required(media))
                .containsExactlyInAnyOrder(Capability.MEDIA, Capability.THREAD, Capability.SILENT);
        assertThat(Capabilities.required(List.of(text, media), Durability.REQUIRED))
                .contains(Capability.BATCH, Capability.RECONCILE_UNKNOWN_SEND);
        Capabilities.Fit bare = Capabilities.fit(List.of(text), EnumSet.of(Capability.TEXT), Durability.BEST_EFFORT);
        assertThat(bare.missing()).containsExactlyInAnyOrder(Capability.THREAD, Capability.MESSAGE_SENDING_HOOKS);
        assertThat(bare.dropped()).containsExactly(Capability.REPLY_TO);
        OutboundMessage card = new OutboundMessage(
                threaded,
                "see the card",
                OutboundMessage.Kind.SEND,
                1,
                List.of(),
                SendOptions.DEFAULT,
                0,
                "send-1",
                "{\"card\":{}}");
        assertThat(Capabilities.required(card)).contains(Capability.PAYLOAD);
        assertThat(Capabilities.fit(List.of(card), BASIC, Durability.BEST_EFFORT)
                        .missing())
                .as("a payload is never dropped")
                .containsExactly(Capability.PAYLOAD);
        assertThat(Capabilities.required(card.asPart(1, "rest", List.of())))
                .as("the payload rides with the first part")
                .doesNotContain(Capability.PAYLOAD);
    }

    @Test
    void mediaGoesAsItsOwnPayloadOrAsANoteWhereTheChannelHasNone() {
        // SPEC OUT-13: a channel without media gets the text plus a short note
        OutboundTarget t = new OutboundTarget("loop", "default", "chat", null, null);
        OutboundMessage reply = new OutboundMessage(
                t,
                "see chart",
                OutboundMessage.Kind.FINAL,
                3,
                List.of(new MediaRef(MediaRef.MediaKind.IMAGE, "/work/chart.png")),
                SendOptions.DEFAULT,
                0);
        Payloads p = new Payloads(null);
        assertThat(p.plan(reply, adapter(with(Capability.MEDIA))))
                .isInstanceOfSatisfying(Payloads.Plan.Send.class, s -> {
                    assertThat(s.parts()).hasSize(2);
                    assertThat(s.parts().get(1).media()).hasSize(1);
                    assertThat(s.parts()).extracting(OutboundMessage::part).containsExactly(0, 1);
                });
        assertThat(p.plan(reply, adapter(BASIC)))
                .isInstanceOfSatisfying(
                        Payloads.Plan.Send.class,
                        s -> assertThat(s.parts())
                                .singleElement()
                                .extracting(OutboundMessage::text)
                                .isEqualTo("see chart\n\n[image omitted: chart.png]"));
    }
}
