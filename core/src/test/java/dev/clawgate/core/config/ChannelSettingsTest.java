package dev.clawgate.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ChannelSettingsTest {

    @Test
    void printingTheSettingsNeverShowsAnOptionValue() {
        // SPEC OP-6: secrets are never logged; a channel's options hold its bot token and signing secret
        ChannelSettings settings = new ChannelSettings(
                "telegram",
                AccessSettings.defaults(),
                Map.of("support", AccessSettings.defaults()),
                Map.of("bot_token", "123:main-secret-token", "mode", "polling"),
                Map.of("support", Map.of("bot_token", "456:support-secret-token")));

        String printed = settings.toString();

        assertThat(printed)
                .doesNotContain("main-secret-token")
                .doesNotContain("support-secret-token")
                .doesNotContain("polling")
                .contains("bot_token")
                .contains("support")
                .contains("telegram");
    }
}
