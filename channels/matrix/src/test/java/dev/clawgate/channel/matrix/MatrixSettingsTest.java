package dev.clawgate.channel.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.channel.ChannelProbe;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.testkit.matrix.FakeMatrixHomeserver;
import dev.clawgate.testkit.matrix.MatrixRoom;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code [channels.matrix]} keys, their checks and {@code doctor}'s probe (SPEC CH-6, OP-4, CH-0). */
class MatrixSettingsTest {
    private static ChannelSettings settings(Map<String, String> options) {
        return new ChannelSettings("matrix", AccessSettings.defaults(), Map.of(), options);
    }

    @Test
    void theChannelDeclaresExactlyItsOwnKeysWithTheTokenSecret() {
        // SPEC CH-6: the access keys (dm_policy, group_policy, allowed_users, allowed_groups, require_mention) are
        // every channel's
        var options = new MatrixChannelFactory().options();
        assertThat(options)
                .extracting(ChannelOption::key)
                .containsExactly(
                        "homeserver",
                        "access_token",
                        "user_id",
                        "auto_join",
                        "stream_mode",
                        "ack_reactions",
                        "text_limit");
        assertThat(options)
                .filteredOn(ChannelOption::secret)
                .extracting(ChannelOption::key)
                .containsExactly("access_token");
    }

    @Test
    void badValuesAreErrorsNamingTheirKeyAndNeverTheToken() {
        // SPEC OP-4, OP-6
        var f = new MatrixChannelFactory();
        assertThatThrownBy(() -> f.check(settings(Map.of("stream_mode", "live"))))
                .hasMessageStartingWith("channels.matrix.stream_mode");
        assertThatThrownBy(() -> f.check(settings(Map.of("auto_join", "sometimes"))))
                .hasMessageStartingWith("channels.matrix.auto_join");
        assertThatThrownBy(() -> f.check(settings(Map.of("homeserver", "matrix.example.org"))))
                .hasMessageStartingWith("channels.matrix.homeserver");
        assertThatThrownBy(() -> f.check(settings(Map.of("user_id", "bot"))))
                .hasMessageStartingWith("channels.matrix.user_id");
        assertThatThrownBy(() -> f.check(settings(Map.of("text_limit", "70000"))))
                .hasMessageStartingWith("channels.matrix.text_limit");
        assertThatThrownBy(() -> f.check(settings(Map.of("access_token", "syt_se cret"))))
                .hasMessageStartingWith("channels.matrix.access_token")
                .hasMessageNotContaining("se cret");
        assertThatThrownBy(() -> f.create(settings(Map.of("homeserver", "https://m.example.org"))))
                .hasMessageStartingWith("channels.matrix.access_token is missing");
        f.check(settings(Map.of())); // a config may be written before the token is known
    }

    @Test
    void doctorNamesTheBotAndTheEncryptedRoomsAndARefusedToken() {
        // SPEC OP-4, CH-6: whoami answers; encrypted rooms are not supported and doctor says which
        try (FakeMatrixHomeserver hs = FakeMatrixHomeserver.start("clawbot")) {
            var alice = hs.user("alice");
            MatrixRoom secret = hs.createRoom(alice, "Secret");
            hs.joinBot(secret);
            hs.as(alice).enableEncryption(secret);
            Map<String, String> o = new HashMap<>(Map.of(
                    "homeserver", hs.baseUrl(), "access_token", hs.botLogin().accessToken()));
            ChannelProbe probe = new MatrixChannelFactory().probe(settings(o));
            assertThat(probe.findings().getFirst().what()).contains(hs.bot().userId());
            assertThat(probe.findings().get(1).what()).contains("not supported").contains(secret.roomId());
            assertThat(probe.ok()).isFalse();
            o.put("access_token", "syt_wrong");
            ChannelProbe refused = new MatrixChannelFactory().probe(settings(o));
            assertThat(refused.ok()).isFalse();
            assertThat(refused.findings().getFirst().what())
                    .contains("M_UNKNOWN_TOKEN")
                    .doesNotContain("syt_wrong");
            assertThat(hs.calls("whoami")).hasSize(2);
        }
    }
}
