package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

// The webhook channel is discovered and configured from [channels.webhook] (SPEC CH-0 wiring, IN-5 secrets stay
// secret).
class WebhookChannelFactoryTest {
    private static final String SECRET = "s3cr3t-value-0123456789";

    private static ChannelSettings settings(Map<String, String> options) {
        return new ChannelSettings("webhook", AccessSettings.defaults(), Map.of(), options);
    }

    @Test
    void serviceLoaderFindsTheFactoryByName() {
        // ARCHITECTURE SPIs: channel modules are discovered, not listed
        ChannelFactory found = ServiceLoader.load(ChannelFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("webhook"))
                .findFirst()
                .orElseThrow();
        Channel ch = found.create(
                settings(Map.of("secret", SECRET, "callback_url", "https://chat.example/cb", "path", "/hooks/in")));
        assertThat(ch.name()).isEqualTo("webhook");
        assertThat(ch.webhookRoutes())
                .singleElement()
                .satisfies(r -> assertThat(r.path()).isEqualTo("/hooks/in"));
        assertThat(ch.ownerChannel()).isFalse();
        assertThat(ch.requestResponse()).isFalse();
    }

    @Test
    void missingOrInvalidKeysAreNamed() {
        // SPEC defaults table: bad config is a clear error
        WebhookChannelFactory f = new WebhookChannelFactory();
        assertThatThrownBy(() -> f.create(settings(Map.of("secret", SECRET))))
                .hasMessageContaining("channels.webhook.callback_url is missing");
        assertThatThrownBy(() -> f.create(settings(Map.of("callback_url", "http://x.example/cb"))))
                .hasMessageContaining("channels.webhook.secret is missing");
        assertThatThrownBy(() -> f.create(settings(Map.of("secret", "tiny-pw", "callback_url", "http://x.example/cb"))))
                .hasMessageContaining("at least 16")
                .hasMessageNotContaining("tiny-pw");
        assertThatThrownBy(() -> f.create(settings(Map.of("secret", SECRET, "callback_url", "ftp://x.example/cb"))))
                .hasMessageContaining("http or https");
        assertThatThrownBy(() -> f.create(
                        settings(Map.of("secret", SECRET, "callback_url", "http://x.example/cb", "path", "hooks"))))
                .hasMessageContaining("channels.webhook.path must be an absolute URL path");
    }

    @Test
    void reconcileIsOffUnlessSetAndThenDeclaresTheLookup() {
        // SPEC OUT-4: reconcileUnknownSend is declared only when the platform answers lookups; OUT-7
        WebhookChannelFactory f = new WebhookChannelFactory();
        Map<String, String> base = Map.of("secret", SECRET, "callback_url", "http://x.example/cb");
        Map<String, String> on = new java.util.HashMap<>(base);
        on.put("reconcile", "true");
        Map<String, String> bad = new java.util.HashMap<>(base);
        bad.put("reconcile", "yes");

        assertThat(f.create(settings(base)).messageAdapter().capabilities())
                .doesNotContain(dev.clawgate.core.outbound.Capability.RECONCILE_UNKNOWN_SEND);
        assertThat(f.create(settings(on)).messageAdapter().capabilities())
                .contains(dev.clawgate.core.outbound.Capability.RECONCILE_UNKNOWN_SEND);
        assertThat(f.create(settings(on)).ackPolicies())
                .containsExactly(dev.clawgate.core.channel.AckPolicy.AFTER_RECEIVE_RECORD);
        assertThatThrownBy(() -> f.create(settings(bad)))
                .hasMessage("channels.webhook.reconcile must be true or false, got 'yes'");
    }

    @Test
    void settingsNeverPrintTheSecretOrTheCallbackQuery() {
        // SPEC OP-6 / PREAMBLE: no secrets in logs or errors
        WebhookChannelSettings s =
                new WebhookChannelSettings(null, SECRET, "https://chat.example/cb?token=hidden-token");
        assertThat(s.path()).isEqualTo(WebhookChannelSettings.DEFAULT_PATH);
        assertThat(s.toString())
                .doesNotContain(SECRET)
                .doesNotContain("hidden-token")
                .contains("https://chat.example/cb");
    }
}
