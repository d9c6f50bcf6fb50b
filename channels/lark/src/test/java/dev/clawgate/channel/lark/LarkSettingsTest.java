package dev.clawgate.channel.lark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.ChannelSettings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code [channels.lark]} (SPEC CH-11, CH-0): its keys, defaults, and errors naming the key. */
class LarkSettingsTest {
    private static ChannelSettings with(String... kv) {
        Map<String, String> o = new HashMap<>(Map.of("app_id", "cli_x", "app_secret", "s", "verification_token", "v"));
        for (int i = 0; i < kv.length; i += 2) o.put(kv[i], kv[i + 1]);
        return new ChannelSettings("lark", null, null, o);
    }

    @Test
    void theKeysAreTheIssuesAndTheDefaultsFeishuAndTheLongConnection() {
        // SPEC CH-11, CH-0: exactly the channel's own keys; Feishu's base and the long connection by default
        assertThat(new LarkChannelFactory().options())
                .extracting(ChannelOption::key)
                .containsExactly(
                        "app_id",
                        "app_secret",
                        "mode",
                        "api_base",
                        "webhook_path",
                        "verification_token",
                        "encrypt_key",
                        "stream_mode",
                        "ack_reactions",
                        "text_limit");
        LarkAccount a = LarkSettings.account(with());
        assertThat(a.apiBase().toString()).isEqualTo("https://open.feishu.cn");
        assertThat(a.webhookPath()).isEqualTo("/webhooks/lark");
        assertThat(a.mode()).isEqualTo("websocket");
        assertThat(a.longConnection()).isTrue();
        assertThat(LarkSettings.account(with("mode", "webhook")).longConnection())
                .isFalse();
        assertThat(new LarkChannelFactory().options())
                .filteredOn(o -> o.key().equals("mode"))
                .singleElement()
                .satisfies(o -> assertThat(String.valueOf(o.defaultValue())).isEqualTo("websocket"));
        assertThat(a.encryptKey()).isNull();
        assertThat(a.preview()).isFalse();
        assertThat(LarkSettings.account(with("stream_mode", "preview")).preview())
                .isTrue();
        assertThat(LarkSettings.account(with("api_base", "https://open.larksuite.com/"))
                        .apiBase()
                        .toString())
                .isEqualTo("https://open.larksuite.com");
    }

    @Test
    void errorsNameTheKeyAndOnlyTheWebhookModeNeedsTheVerificationToken() {
        // SPEC CH-0: each error starts with the key's full path; a missing credential is left to run and doctor
        assertThatThrownBy(() -> LarkSettings.check(with("mode", "socket")))
                .hasMessageStartingWith("channels.lark.mode")
                .hasMessageContaining("websocket", "webhook");
        Map<String, String> noToken = Map.of("app_id", "cli_x", "app_secret", "s");
        assertThat(LarkSettings.account(new ChannelSettings("lark", null, null, noToken))
                        .verificationToken())
                .isNull();
        Map<String, String> webhookNoToken = Map.of("app_id", "cli_x", "app_secret", "s", "mode", "webhook");
        assertThatThrownBy(() -> LarkSettings.account(new ChannelSettings("lark", null, null, webhookNoToken)))
                .hasMessageStartingWith("channels.lark.verification_token is missing");
        assertThatThrownBy(() -> LarkSettings.check(with("text_limit", "5")))
                .hasMessageStartingWith("channels.lark.text_limit");
        assertThatThrownBy(() -> LarkSettings.check(with("api_base", "ftp://x")))
                .hasMessageStartingWith("channels.lark.api_base");
        assertThatThrownBy(() -> LarkSettings.check(with("stream_mode", "fast")))
                .hasMessageStartingWith("channels.lark.stream_mode");
        assertThatThrownBy(() -> LarkSettings.account(new ChannelSettings("lark", null, null, Map.of())))
                .hasMessageStartingWith("channels.lark.app_id is missing");
        LarkSettings.check(new ChannelSettings("lark", null, null, Map.of()));
    }
}
