package dev.clawgate.channel.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.slack.FakeSlack;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code clawgate doctor} on Slack: auth.test tells a refused token from an unreachable API; a refused token stops the
 * start (SPEC OP-4, CH-0).
 */
class SlackProbeTest {
    private final FakeSlack slack = FakeSlack.start("clawbot");

    @AfterEach
    void stop() {
        slack.close();
    }

    private ChannelSettings settings(String apiBase) {
        return new ChannelSettings(
                "slack",
                null,
                Map.of(),
                Map.of("bot_token", slack.botToken(), "signing_secret", slack.signingSecret(), "api_base", apiBase));
    }

    @Test
    void aWorkingTokenAnswers() {
        ChannelProbe p = new SlackChannelFactory().probe(settings(slack.apiBase()));
        assertThat(p.ok()).isTrue();
        assertThat(p.findings().getFirst().what())
                .contains("clawbot", slack.bot().id());
        assertThat(slack.calls("auth.test")).hasSize(1);
    }

    @Test
    void aRevokedTokenIsRefusedWithTheKeyToFix() {
        slack.revokeBotToken();
        ChannelProbe p = new SlackChannelFactory().probe(settings(slack.apiBase()));
        assertThat(p.ok()).isFalse();
        assertThat(p.findings().getFirst().what())
                .contains("refused the bot token", "token_revoked")
                .doesNotContain(slack.botToken());
        assertThat(p.findings().getFirst().fix()).contains("channels.slack.bot_token");
        // the channel does not start on a refused token, and says why
        var channel = new SlackChannelFactory().create(settings(slack.apiBase()));
        assertThatThrownBy(() -> channel.start(new RecordingInbox()))
                .hasMessageContaining("refuses the bot token")
                .hasMessageNotContaining(slack.botToken());
    }

    @Test
    void anUnreachableApiIsSaidSo() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        ChannelProbe p = new SlackChannelFactory().probe(settings("http://127.0.0.1:" + closed + "/api"));
        assertThat(p.ok()).isFalse();
        assertThat(p.findings().getFirst().what()).contains("unreachable");
        assertThat(p.findings().getFirst().fix()).contains("channels.slack.api_base");
    }
}
