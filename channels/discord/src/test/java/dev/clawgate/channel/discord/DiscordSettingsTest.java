package dev.clawgate.channel.discord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code [channels.discord]} and its accounts (SPEC CH-5, OP-4): keys, defaults, and errors naming their key. */
class DiscordSettingsTest {
    private static ChannelSettings settings(Map<String, String> options, Map<String, Map<String, String>> accounts) {
        return new ChannelSettings("discord", AccessSettings.defaults(), Map.of(), options, accounts);
    }

    @Test
    void theOptionsAreExactlyDiscordsOwnKeys() {
        // SPEC CH-5: bot_token, api_base, gateway_url, message_content, stream_mode, ack_reactions, text_limit (access
        // keys are core's)
        assertThat(new DiscordChannelFactory().options())
                .extracting(ChannelOption::key)
                .containsExactly(
                        "bot_token",
                        "api_base",
                        "gateway_url",
                        "message_content",
                        "stream_mode",
                        "ack_reactions",
                        "text_limit");
        assertThat(new DiscordChannelFactory().options())
                .filteredOn(ChannelOption::secret)
                .extracting(ChannelOption::key)
                .containsExactly("bot_token");
    }

    @Test
    void defaultsAreDiscordsAndAccountsTakeTheRestFromTheTable() {
        // SPEC CH-5, OP-6: Discord defaults; an account sets its own token and inherits the rest; no token shown
        List<DiscordAccount> accounts = DiscordSettings.accounts(settings(
                Map.of("bot_token", "MTA.x.y", "message_content", "false"),
                Map.of("second", Map.of("bot_token", "MTB.x.y", "text_limit", "1500"))));
        assertThat(accounts).extracting(DiscordAccount::id).containsExactly("default", "second");
        DiscordAccount first = accounts.getFirst();
        assertThat(first.apiBase()).hasToString("https://discord.com/api/v10");
        assertThat(first.gatewayUrl()).isNull();
        assertThat(first.textLimit()).isEqualTo(2000);
        assertThat(first.messageContent()).isFalse();
        assertThat(accounts.get(1).messageContent()).isFalse();
        assertThat(accounts.get(1).textLimit()).isEqualTo(1500);
        assertThat(first.toString()).doesNotContain("MTA.x.y");
    }

    @Test
    void badValuesAreErrorsNamingTheirKey() {
        // SPEC OP-4: each error starts with the key's full path
        assertThatThrownBy(() -> DiscordSettings.check(settings(Map.of("text_limit", "4000"), Map.of())))
                .hasMessageStartingWith("channels.discord.text_limit must be between 16 and 2000");
        assertThatThrownBy(() -> DiscordSettings.check(settings(Map.of("stream_mode", "live"), Map.of())))
                .hasMessageStartingWith("channels.discord.stream_mode must be");
        assertThatThrownBy(() -> DiscordSettings.check(settings(Map.of("gateway_url", "http://gw"), Map.of())))
                .hasMessageStartingWith("channels.discord.gateway_url must be a ws(s) URL");
        assertThatThrownBy(() -> DiscordSettings.check(settings(Map.of("message_content", "maybe"), Map.of())))
                .hasMessageStartingWith("channels.discord.message_content must be true or false");
        assertThatThrownBy(() -> DiscordSettings.check(settings(Map.of("bot_token", "Bot MTA.secret.part"), Map.of())))
                .hasMessageStartingWith("channels.discord.bot_token must be the token alone")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> DiscordSettings.accounts(settings(Map.of(), Map.of())))
                .hasMessageStartingWith("channels.discord.bot_token is missing");
        // a config may be written before the token is known
        DiscordSettings.check(settings(Map.of(), Map.of()));
    }
}
