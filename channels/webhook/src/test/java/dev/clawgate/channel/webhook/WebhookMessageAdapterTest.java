package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.testkit.webhook.CallbackAnswer;
import dev.clawgate.testkit.webhook.CallbackReply;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

// The webhook's outbound side against the fake platform's callback server (SPEC OUT-4, OUT-7, OUT-8, OUT-12).
class WebhookMessageAdapterTest {
    private static final String SECRET = "callback-secret-0123456789";
    /** Short enough that a scripted late answer is a quick timeout, long enough for a loaded CI machine. */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final FakeWebhookPlatform platform = FakeWebhookPlatform.start(SECRET);
    private final WebhookChannel channel = channel(false);

    private WebhookChannel channel(boolean reconcile) {
        return channel(platform.callbackUrl(), SECRET, reconcile);
    }

    private static WebhookChannel channel(String callback, String secret, boolean reconcile) {
        return new WebhookChannel(
                new WebhookChannelSettings(null, secret, callback, reconcile), Clock.systemUTC(), TIMEOUT);
    }

    @AfterEach
    void close() {
        channel.stop();
        platform.close();
    }

    private static OutboundMessage reply(String text, OutboundMessage.Kind kind) {
        return new OutboundMessage(
                new OutboundTarget("webhook", "default", "room-1", "thread-2", "m-77"), text, kind, 77);
    }

    private static DeliveryException failureOf(MessageAdapter adapter, OutboundMessage m) {
        try {
            adapter.send(m, CancelToken.none());
        } catch (DeliveryException e) {
            return e;
        }
        throw new AssertionError("the send succeeded");
    }

    @Test
    void aReplyIsPostedAsSignedJsonWithItsIdempotencyKeyAndTheReceiptCarriesThePlatformId() throws Exception {
        // SPEC OUT-4, OUT-8; OUT-7: the key the platform can be asked about after a crash
        MessageReceipt receipt =
                channel.messageAdapter().send(reply("Hi \"there\" ✓", OutboundMessage.Kind.FINAL), CancelToken.none());

        CallbackReply got = platform.replies().getFirst();
        assertThat(platform.replies()).hasSize(1);
        assertThat(got.signatureValid()).isTrue();
        assertThat(got.chat()).isEqualTo("room-1");
        assertThat(got.thread()).isEqualTo("thread-2");
        assertThat(got.inReplyTo()).isEqualTo("m-77");
        assertThat(got.turnId()).isEqualTo(77);
        assertThat(got.text()).isEqualTo("Hi \"there\" ✓");
        assertThat(got.kind()).isEqualTo("final");
        assertThat(got.idempotencyKey()).isEqualTo("clawgate-77-final-0");
        assertThat(receipt.primaryId()).startsWith("reply-");
        assertThat(receipt.platformIds()).containsExactly(receipt.primaryId());
        assertThat(receipt.threadId()).isEqualTo("thread-2");
        assertThat(receipt.replyToId()).isEqualTo("m-77");
    }

    @Test
    void aReplyThatDoesNotAskToAnswerTheMessageCarriesNoInReplyTo() throws Exception {
        // SPEC OUT-3 reply_to_mode off, OUT-4 replyTo
        channel.messageAdapter()
                .send(
                        reply("plain", OutboundMessage.Kind.FINAL).withOptions(SendOptions.DEFAULT.withoutReplyTo()),
                        CancelToken.none());
        assertThat(platform.replies()).singleElement().satisfies(r -> {
            assertThat(r.inReplyTo()).isNull();
            assertThat(r.thread()).isEqualTo("thread-2");
        });
    }

    @Test
    void noticesAndErrorsSayTheirKind() throws Exception {
        // SPEC OUT-12: notices are not final replies
        channel.messageAdapter().send(reply("queued", OutboundMessage.Kind.NOTICE), CancelToken.none());
        channel.messageAdapter().send(reply("failed", OutboundMessage.Kind.ERROR), CancelToken.none());
        assertThat(platform.replies()).extracting(CallbackReply::kind).containsExactly("notice", "error");
        assertThat(platform.replies())
                .extracting(CallbackReply::idempotencyKey)
                .containsExactly("clawgate-77-notice-0", "clawgate-77-error-0");
        assertThat(platform.finalRepliesPerMessage()).isEmpty();
    }

    @Test
    void a4xxIsPermanentA5xxTransientAndA429TransientWithItsRetryAfter() {
        // SPEC OUT-7: permanent platform errors fail at once, the rest are retried, never sooner than retry-after
        platform.scriptCallbacks(
                CallbackAnswer.status(404),
                CallbackAnswer.rateLimited(Duration.ofSeconds(7)),
                CallbackAnswer.status(503),
                CallbackAnswer.status(408));
        DeliveryException notFound = failureOf(channel.messageAdapter(), reply("a", OutboundMessage.Kind.FINAL));
        DeliveryException limited = failureOf(channel.messageAdapter(), reply("b", OutboundMessage.Kind.FINAL));
        DeliveryException busy = failureOf(channel.messageAdapter(), reply("c", OutboundMessage.Kind.FINAL));
        DeliveryException slowClient = failureOf(channel.messageAdapter(), reply("d", OutboundMessage.Kind.FINAL));

        assertThat(notFound.kind()).isEqualTo(DeliveryException.Kind.PERMANENT);
        assertThat(notFound.getMessage()).isEqualTo("callback answered HTTP 404");
        assertThat(limited.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
        assertThat(limited.retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(busy.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
        assertThat(busy.retryAfter()).isNull();
        assertThat(slowClient.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
        assertThat(platform.replies()).hasSize(4).noneMatch(CallbackReply::accepted);
    }

    @Test
    void anUnreachableCallbackIsTransientAndNamesNoUrl() throws Exception {
        // SPEC OUT-7: nothing left the client; HI-6: errors carry no URLs
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        WebhookChannel down = channel("http://127.0.0.1:" + port + "/cb?token=abc", SECRET, false);
        DeliveryException e = failureOf(down.messageAdapter(), reply("x", OutboundMessage.Kind.FINAL));
        assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
        assertThat(e.getMessage())
                .startsWith("callback unreachable")
                .doesNotContain("token")
                .doesNotContain(String.valueOf(port));
    }

    @Test
    void anAnswerThatComesTooLateIsAmbiguousThoughThePlatformKeptTheReply() {
        // SPEC OUT-7: the request may have reached the platform, so it must never be resent blindly
        platform.scriptCallbacks(CallbackAnswer.acceptedButLate(TIMEOUT.multipliedBy(3)));
        DeliveryException e = failureOf(channel.messageAdapter(), reply("late", OutboundMessage.Kind.FINAL));
        assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS);
        assertThat(e.getMessage()).doesNotContain("127.0.0.1");
        assertThat(platform.finalRepliesPerKey()).containsExactly(Map.entry("clawgate-77-final-0", 1L));
    }

    @Test
    void aConnectionResetAfterTheRequestWasWrittenIsAmbiguous() {
        // SPEC OUT-7
        platform.scriptCallbacks(CallbackAnswer.acceptedThenHangUp());
        DeliveryException e = failureOf(channel.messageAdapter(), reply("reset", OutboundMessage.Kind.FINAL));
        assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS);
        assertThat(platform.replies())
                .singleElement()
                .satisfies(r -> assertThat(r.accepted()).isTrue());
    }

    @Test
    void withoutReconcileTheAdapterDeclaresNoLookupAndNeverAsksThePlatform() throws Exception {
        // SPEC OUT-4: only what the channel really does is declared; OUT-7: without reconcile the outcome stays unknown
        MessageAdapter adapter = channel.messageAdapter();
        assertThat(adapter.capabilities())
                .containsExactlyInAnyOrder(
                        Capability.TEXT,
                        Capability.PAYLOAD,
                        Capability.REPLY_TO,
                        Capability.THREAD,
                        Capability.MESSAGE_SENDING_HOOKS);
        assertThat(adapter.reconcileUnknownSend(reply("x", OutboundMessage.Kind.FINAL), CancelToken.none()))
                .isInstanceOf(Reconciliation.Unknown.class);
        assertThat(platform.lookups()).isZero();
    }

    @Test
    void reconcileFindsAReplyTheTimeoutHidAndProvesAbsenceOfOneThatNeverArrived() throws Exception {
        // SPEC OUT-7 reconcileUnknownSend: found → acknowledged with the platform's id; 404 → proven not sent
        WebhookChannel reconciling = channel(true);
        MessageAdapter adapter = reconciling.messageAdapter();
        assertThat(adapter.capabilities()).contains(Capability.RECONCILE_UNKNOWN_SEND);
        platform.scriptCallbacks(
                CallbackAnswer.acceptedButLate(TIMEOUT.multipliedBy(3)),
                CallbackAnswer.lostAndLate(TIMEOUT.multipliedBy(3)));
        OutboundMessage kept = reply("kept", OutboundMessage.Kind.FINAL);
        OutboundMessage lost = new OutboundMessage(
                new OutboundTarget("webhook", "default", "room-1", null, "m-78"),
                "lost",
                OutboundMessage.Kind.FINAL,
                78);
        assertThat(failureOf(adapter, kept).kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS);
        assertThat(failureOf(adapter, lost).kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS);

        Reconciliation found = adapter.reconcileUnknownSend(kept, CancelToken.none());
        Reconciliation absent = adapter.reconcileUnknownSend(lost, CancelToken.none());

        assertThat(found).isInstanceOfSatisfying(Reconciliation.Found.class, f -> {
            assertThat(f.receipt().primaryId()).isEqualTo("reply-1");
            assertThat(f.receipt().replyToId()).isEqualTo("m-77");
        });
        assertThat(absent).isInstanceOf(Reconciliation.NotSent.class);
        assertThat(platform.lookups()).isEqualTo(2);
        assertThat(platform.calls(FakeWebhookPlatform.CALLBACK_LOOKUP))
                .extracting(c -> c.headers().get(":path"))
                .containsExactly(
                        "/callback?idempotency_key=clawgate-77-final-0",
                        "/callback?idempotency_key=clawgate-78-final-0");
    }

    @Test
    void aLookupSignedOverACallbackQueryKeepsTheQueryAndARefusedLookupIsUnknown() throws Exception {
        // SPEC OUT-7: anything but 200 or 404 cannot tell; HI-6: the callback's token stays where it was put
        OutboundMessage m = reply("x", OutboundMessage.Kind.FINAL);
        channel.messageAdapter().send(m, CancelToken.none());
        MessageAdapter withQuery =
                channel(platform.callbackUrl() + "?token=abc", SECRET, true).messageAdapter();
        MessageAdapter wrongSecret = channel(platform.callbackUrl(), "another-secret-0123456789", true)
                .messageAdapter();

        assertThat(withQuery.reconcileUnknownSend(m, CancelToken.none())).isInstanceOf(Reconciliation.Found.class);
        assertThat(wrongSecret.reconcileUnknownSend(m, CancelToken.none()))
                .isInstanceOfSatisfying(
                        Reconciliation.Unknown.class, u -> assertThat(u.why()).isEqualTo("lookup answered HTTP 401"));
        assertThat(platform.calls(FakeWebhookPlatform.CALLBACK_LOOKUP)
                        .getFirst()
                        .headers()
                        .get(":path"))
                .isEqualTo("/callback?token=abc&idempotency_key=clawgate-77-final-0");
    }

    @Test
    void theBodyNamesEveryFieldOfTheWireFormat() throws Exception {
        // SPEC OUT-4: what the README documents is what goes out
        var n = new ObjectMapper().readTree(WebhookMessageAdapter.body(reply("t", OutboundMessage.Kind.FINAL)));
        List<String> fields = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(fields::add);
        assertThat(fields)
                .containsExactly("chat", "thread", "text", "in_reply_to", "turn_id", "kind", "idempotency_key");
        var withPayload = new ObjectMapper()
                .readTree(WebhookMessageAdapter.body(new OutboundMessage(
                        new dev.clawgate.core.outbound.OutboundTarget("webhook", "default", "room", null, null),
                        "t",
                        OutboundMessage.Kind.SEND,
                        3,
                        List.of(),
                        dev.clawgate.core.outbound.SendOptions.DEFAULT,
                        0,
                        "send-1",
                        "{\"card\":1}")));
        assertThat(withPayload.path("payload").path("card").asInt()).isEqualTo(1);
        assertThatThrownBy(() -> WebhookMessageAdapter.body(new OutboundMessage(
                        new dev.clawgate.core.outbound.OutboundTarget("webhook", "default", "room", null, null),
                        "t",
                        OutboundMessage.Kind.SEND,
                        3,
                        List.of(),
                        dev.clawgate.core.outbound.SendOptions.DEFAULT,
                        0,
                        "send-1",
                        "[1,2]")))
                .isInstanceOfSatisfying(
                        dev.clawgate.core.outbound.DeliveryException.class,
                        e -> assertThat(e.permanent()).isTrue());
    }

    @Test
    void aCancelledRunSendsNothing() {
        // SPEC OUT-11: a cancelled run's deliveries are cancelled, not half-sent
        CancelToken cancel = CancelToken.none();
        cancel.cancel("stop");
        assertThatThrownBy(() -> channel.messageAdapter().send(reply("x", OutboundMessage.Kind.FINAL), cancel))
                .isInstanceOf(CancelledException.class);
        assertThat(platform.replies()).isEmpty();
    }
}
