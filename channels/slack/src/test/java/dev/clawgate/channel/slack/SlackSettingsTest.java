package dev.clawgate.channel.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.ChannelSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code [channels.slack]}: its keys, defaults and value checks, each error naming its key (SPEC CH-4, OP-4). */
class SlackSettingsTest {
    private static ChannelSettings settings(Map<String, String> options) {
        return new ChannelSettings("slack", null, Map.of(), options);
    }

    @Test
    void theFactoryDeclaresTheIssuesKeysWithTheirDefaultsAndSecrets() {
        var options = new SlackChannelFactory().options();
        assertThat(options)
                .extracting(ChannelOption::key)
                .containsExactly(
                        "bot_token",
                        "signing_secret",
                        "app_token",
                        "mode",
                        "api_base",
                        "webhook_path",
                        "stream_mode",
                        "ack_reactions",
                        "text_limit",
                        "api_timeout_secs");
        assertThat(options)
                .filteredOn(ChannelOption::secret)
                .extracting(ChannelOption::key)
                .containsExactly("bot_token", "signing_secret", "app_token");
        assertThat(options)
                .filteredOn(o -> o.key().equals("api_base"))
                .singleElement()
                .satisfies(o -> assertThat(o.defaultValue()).isEqualTo("https://slack.com/api"));
        assertThat(options)
                .filteredOn(o -> o.key().equals("webhook_path"))
                .singleElement()
                .satisfies(o -> assertThat(o.defaultValue()).isEqualTo("/webhooks/slack"));
        assertThat(options)
                .filteredOn(o -> o.key().equals("text_limit"))
                .singleElement()
                .satisfies(o -> assertThat(o.defaultValue()).isEqualTo("4000"));
        // SPEC OUT-7: a call past this is unknown_after_send
        assertThat(options)
                .filteredOn(o -> o.key().equals("api_timeout_secs"))
                .singleElement()
                .satisfies(o -> assertThat(o.defaultValue()).isEqualTo("30"));
    }

    @Test
    void defaultsAndModes() {
        SlackAccount a = SlackSettings.accounts(settings(Map.of("bot_token", "xoxb-1", "signing_secret", "s")))
                .getFirst();
        assertThat(a.mode()).isEqualTo(SlackAccount.Mode.EVENTS);
        assertThat(a.apiBase().toString()).isEqualTo("https://slack.com/api");
        assertThat(a.webhookPath()).isEqualTo("/webhooks/slack");
        assertThat(a.textLimit()).isEqualTo(4000);
        assertThat(a.toString()).doesNotContain("xoxb-1");
        SlackAccount s = SlackSettings.accounts(
                        settings(Map.of("bot_token", "xoxb-1", "app_token", "xapp-1", "mode", "socket")))
                .getFirst();
        assertThat(s.mode()).isEqualTo(SlackAccount.Mode.SOCKET);
        assertThat(a.preview()).isFalse();
        assertThat(SlackSettings.accounts(settings(
                                Map.of("bot_token", "xoxb-1", "signing_secret", "s", "stream_mode", "preview")))
                        .getFirst()
                        .preview())
                .isTrue();
    }

    @Test
    void badValuesNameTheirKey() {
        assertThatThrownBy(() -> SlackSettings.check(settings(Map.of("mode", "rtm"))))
                .hasMessageStartingWith("channels.slack.mode must be");
        assertThatThrownBy(() -> SlackSettings.check(settings(Map.of("text_limit", "5000"))))
                .hasMessageStartingWith("channels.slack.text_limit");
        assertThatThrownBy(() -> SlackSettings.check(settings(Map.of("stream_mode", "live"))))
                .hasMessageStartingWith("channels.slack.stream_mode");
        assertThatThrownBy(() -> SlackSettings.check(settings(Map.of("bot_token", "xoxp-user-token"))))
                .hasMessageStartingWith("channels.slack.bot_token")
                .hasMessageNotContaining("xoxp-user-token");
        assertThatThrownBy(() -> SlackSettings.accounts(settings(Map.of("bot_token", "xoxb-1"))))
                .hasMessageStartingWith("channels.slack.signing_secret is missing");
        assertThatThrownBy(() -> SlackSettings.accounts(settings(Map.of("bot_token", "xoxb-1", "mode", "socket"))))
                .hasMessageStartingWith("channels.slack.app_token is missing");
        assertThatThrownBy(() -> SlackSettings.check(settings(Map.of("api_timeout_secs", "0"))))
                .hasMessageStartingWith("channels.slack.api_timeout_secs must be between 1 and 300");
        assertThat(SlackSettings.accounts(
                                settings(Map.of("bot_token", "xoxb-1", "signing_secret", "s", "api_timeout_secs", "2")))
                        .getFirst()
                        .callTimeout())
                .isEqualTo(java.time.Duration.ofSeconds(2));
        // a config written before the tokens are known passes the loader's check
        SlackSettings.check(settings(Map.of("mode", "socket")));
    }
}
