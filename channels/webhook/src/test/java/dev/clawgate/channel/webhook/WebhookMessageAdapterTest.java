package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.testkit.webhook.CallbackReply;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

// The webhook's outbound side against the fake platform's callback server (SPEC OUT-4, OUT-8, OUT-12).
class WebhookMessageAdapterTest {
    private static final String SECRET = "callback-secret-0123456789";
    private final FakeWebhookPlatform platform = FakeWebhookPlatform.start(SECRET);
    private final WebhookChannel channel = new WebhookChannel(new WebhookChannelSettings(null, SECRET, platform.callbackUrl()));

    @AfterEach
    void close() {
        channel.stop();
        platform.close();
    }

    private static OutboundMessage reply(String text, OutboundMessage.Kind kind) {
        return new OutboundMessage(new OutboundTarget("webhook", "default", "room-1", "thread-2", "m-77"), text, kind, 77);
    }

    @Test
    void aReplyIsPostedAsSignedJsonAndTheReceiptCarriesThePlatformId() throws Exception {
        // SPEC OUT-4, OUT-8
        MessageReceipt receipt = channel.messageAdapter().send(reply("Hi \"there\" ✓", OutboundMessage.Kind.FINAL), CancelToken.none());

        CallbackReply got = platform.replies().getFirst();
        assertThat(platform.replies()).hasSize(1);
        assertThat(got.signatureValid()).isTrue();
        assertThat(got.chat()).isEqualTo("room-1");
        assertThat(got.thread()).isEqualTo("thread-2");
        assertThat(got.inReplyTo()).isEqualTo("m-77");
        assertThat(got.turnId()).isEqualTo(77);
        assertThat(got.text()).isEqualTo("Hi \"there\" ✓");
        assertThat(got.kind()).isEqualTo("final");
        assertThat(receipt.primaryId()).startsWith("reply-");
        assertThat(receipt.platformIds()).containsExactly(receipt.primaryId());
    }

    @Test
    void noticesAndErrorsSayTheirKind() throws Exception {
        // SPEC OUT-12: notices are not final replies
        channel.messageAdapter().send(reply("queued", OutboundMessage.Kind.NOTICE), CancelToken.none());
        channel.messageAdapter().send(reply("failed", OutboundMessage.Kind.ERROR), CancelToken.none());
        assertThat(platform.replies()).extracting(CallbackReply::kind).containsExactly("notice", "error");
        assertThat(platform.finalRepliesPerMessage()).isEmpty();
    }

    @Test
    void a4xxIsPermanentButA429OrA5xxIsTransient() {
        // SPEC OUT-7: permanent platform errors fail at once, the rest are retried
        platform.scriptCallbackStatuses(404, 429, 503);
        assertThatThrownBy(() -> channel.messageAdapter().send(reply("a", OutboundMessage.Kind.FINAL), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.permanent()).isTrue();
                    assertThat(e.getMessage()).isEqualTo("callback answered HTTP 404");
                });
        assertThatThrownBy(() -> channel.messageAdapter().send(reply("b", OutboundMessage.Kind.FINAL), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> assertThat(e.permanent()).isFalse());
        assertThatThrownBy(() -> channel.messageAdapter().send(reply("c", OutboundMessage.Kind.FINAL), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> assertThat(e.permanent()).isFalse());
        assertThat(platform.replies()).hasSize(3);
    }

    @Test
    void anUnreachableCallbackIsTransientAndNamesNoUrl() throws Exception {
        // SPEC OUT-7; HI-6: errors carry no URLs
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        WebhookChannel down = new WebhookChannel(new WebhookChannelSettings(null, SECRET, "http://127.0.0.1:" + port + "/cb?token=abc"));
        assertThatThrownBy(() -> down.messageAdapter().send(reply("x", OutboundMessage.Kind.FINAL), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.permanent()).isFalse();
                    assertThat(e.getMessage()).startsWith("callback unreachable").doesNotContain("token").doesNotContain(String.valueOf(port));
                });
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
