package dev.clawgate.channel.discord;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.testkit.discord.DiscordRoutes;
import dev.clawgate.testkit.discord.FakeDiscord;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code clawgate doctor} on Discord (SPEC OP-4, CH-0, CH-5): token, Message Content intent, Gateway. */
class DiscordProbeTest {
    private FakeDiscord discord;

    @BeforeEach
    void start() {
        discord = FakeDiscord.start("clawbot");
    }

    @AfterEach
    void stop() {
        discord.close();
    }

    private ChannelProbe probe(String token, boolean messageContent) {
        return new DiscordChannelFactory()
                .probe(new ChannelSettings(
                        "discord",
                        AccessSettings.defaults(),
                        Map.of(),
                        Map.of(
                                "bot_token",
                                token,
                                "api_base",
                                discord.apiBase(),
                                "message_content",
                                Boolean.toString(messageContent))));
    }

    @Test
    void aWorkingBotIsNamedWithItsContentIntentAndGateway() {
        // SPEC OP-4, CH-5: /users/@me, the application's flags, and the Gateway opened until its Hello (no Identify)
        ChannelProbe p = probe(discord.botToken(), true);
        assertThat(p.ok()).isTrue();
        assertThat(p.findings())
                .extracting(ChannelProbe.Finding::what)
                .containsExactly(
                        "bot clawbot (" + discord.bot().id() + ") answers",
                        "the Message Content intent is limited (enabled in the Developer Portal, under 100 servers)",
                        "the Gateway at " + discord.gatewayUrl() + " answers");
        assertThat(discord.calls(DiscordRoutes.CURRENT_USER)).hasSize(1);
        assertThat(discord.calls("GATEWAY IDENTIFY")).isEmpty();
    }

    @Test
    void anAbsentContentIntentIsAProblemWithBothFixesUnlessMessageContentIsOff() {
        // SPEC CH-5: the "connects, never answers" failure found before it happens
        discord.messageContentEnabled(false);
        ChannelProbe p = probe(discord.botToken(), true);
        assertThat(p.ok()).isFalse();
        ChannelProbe.Finding content = p.findings().get(1);
        assertThat(content.what()).contains("absent", "4014");
        assertThat(content.fix())
                .contains("Message Content Intent", "channels.discord.message_content = false", "require_mention");
        assertThat(probe(discord.botToken(), false).ok()).isTrue();
    }

    @Test
    void aRefusedTokenIsAProblemAndTheTokenIsNotShown() {
        // SPEC OP-4, OP-6, CH-0
        ChannelProbe p = probe("MTA.wrong.token", true);
        assertThat(p.ok()).isFalse();
        assertThat(p.findings()).singleElement().satisfies(f -> {
            assertThat(f.what()).contains("refused the bot token (401)").doesNotContain("MTA.wrong.token");
            assertThat(f.fix()).contains("channels.discord.bot_token");
        });
    }
}
