package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.internal.outbound.DirectDelivery;
import dev.clawgate.core.internal.outbound.Payloads;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC OUT-1: the webhook channel's text limit is configurable, and a longer reply reaches the platform as several
 * posts within it.
 */
class WebhookTextLimitTest {
    private static final String SECRET = "limit-secret-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FakeWebhookPlatform platform = FakeWebhookPlatform.start(SECRET);

    @AfterEach
    void close() {
        platform.close();
    }

    private Channel channel(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>(Map.of("secret", SECRET, "callback_url", platform.callbackUrl()));
        options.putAll(extra);
        return new WebhookChannelFactory()
                .create(new ChannelSettings("webhook", AccessSettings.defaults(), Map.of(), options));
    }

    private static String text(PlatformCall call) {
        try {
            return JSON.readTree(call.body()).path("text").asText();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aReplyLongerThanTheConfiguredLimitArrivesAsSeveralPostsWithinIt() {
        // SPEC OUT-1: every limit is configurable; no chunk exceeds it; joining the chunks gives back the text
        Channel ch = channel(Map.of("text_limit", "300"));
        assertThat(ch.messageAdapter().textLimit()).isEqualTo(300);
        String reply = ("Every sentence here is part of a long reply. ".repeat(5) + "\n\n")
                .repeat(5)
                .strip();
        OutboundMessage m = new OutboundMessage(
                new OutboundTarget("webhook", "default", "room-1", null, "m-1"), reply, OutboundMessage.Kind.FINAL, 1);
        DeliveryOutcome outcome =
                new DirectDelivery(new Payloads(null)).deliver(m, ch.messageAdapter(), CancelToken.none());
        assertThat(outcome).isInstanceOf(DeliveryOutcome.Sent.class);
        List<String> posts = platform.calls().stream()
                .filter(c -> c.method().equals(FakeWebhookPlatform.CALLBACK_POST))
                .map(WebhookTextLimitTest::text)
                .toList();
        assertThat(posts)
                .hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(t -> assertThat(t.length()).isLessThanOrEqualTo(300));
        assertThat(String.join(" ", posts).replaceAll("\\s+", " ")).isEqualTo(reply.replaceAll("\\s+", " "));
    }

    @Test
    void theDefaultIsFourThousandAndABadLimitIsAClearError() {
        // SPEC OUT-1 (default 4000), defaults table: bad config names the key
        assertThat(channel(Map.of()).messageAdapter().textLimit()).isEqualTo(4000);
        assertThatThrownBy(() -> channel(Map.of("text_limit", "2")))
                .hasMessage("channels.webhook.text_limit must be between 4 and 100000, got 2");
        assertThatThrownBy(() -> channel(Map.of("text_limit", "many")))
                .hasMessage("channels.webhook.text_limit must be an integer, got 'many'");
    }
}
