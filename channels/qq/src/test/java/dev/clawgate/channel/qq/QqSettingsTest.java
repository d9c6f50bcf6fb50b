package dev.clawgate.channel.qq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code [channels.qq]} (SPEC CH-13): defaults, and errors that name the key. */
class QqSettingsTest {
    private static ChannelSettings settings(Map<String, String> extra) {
        Map<String, String> o = new HashMap<>(Map.of("app_id", "102030405", "client_secret", "s3cret"));
        o.putAll(extra);
        return new ChannelSettings("qq", AccessSettings.defaults(), Map.of(), o);
    }

    @Test
    void theDefaultsAreTheWebSocketGatewayOnTheProductionApi() {
        // SPEC CH-13: mode websocket, api_base, token_url, webhook_path defaults
        QqAccount a = QqSettings.account(settings(Map.of()));
        assertThat(a.webhook()).isFalse();
        assertThat(a.apiBase()).hasToString("https://api.sgroup.qq.com");
        assertThat(a.tokenUrl()).hasToString("https://bots.qq.com/app/getAppAccessToken");
        assertThat(a.webhookPath()).isEqualTo("/webhooks/qq");
        assertThat(a.gatewayUrl()).isNull();
        assertThat(a.textLimit()).isEqualTo(2000);
        assertThat(a.toString()).doesNotContain("s3cret");
    }

    @Test
    void sandboxSwitchesTheApiBaseUnlessOneIsSet() {
        // SPEC CH-13: sandbox = true uses the sandbox OpenAPI root
        assertThat(QqSettings.account(settings(Map.of("sandbox", "true"))).apiBase())
                .hasToString("https://sandbox.api.sgroup.qq.com");
        assertThat(QqSettings.account(settings(Map.of("sandbox", "true", "api_base", "http://127.0.0.1:9")))
                        .apiBase())
                .hasToString("http://127.0.0.1:9");
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        // SPEC CH-13, OP-4: each error starts with the key's full path
        assertThatThrownBy(() -> QqSettings.check(settings(Map.of("mode", "poll"))))
                .hasMessageStartingWith("channels.qq.mode must be");
        assertThatThrownBy(() -> QqSettings.check(settings(Map.of("text_limit", "9"))))
                .hasMessageStartingWith("channels.qq.text_limit must be between");
        assertThatThrownBy(() -> QqSettings.check(settings(Map.of("gateway_url", "http://x"))))
                .hasMessageStartingWith("channels.qq.gateway_url must be a ws(s) URL");
        assertThatThrownBy(() -> QqSettings.check(settings(Map.of("stream_mode", "preview"))))
                .hasMessageStartingWith("channels.qq.stream_mode must be \"off\"");
        assertThatThrownBy(() -> QqSettings.account(
                        new ChannelSettings("qq", AccessSettings.defaults(), Map.of(), Map.of("app_id", "1"))))
                .hasMessageStartingWith("channels.qq.client_secret is missing");
    }
}
