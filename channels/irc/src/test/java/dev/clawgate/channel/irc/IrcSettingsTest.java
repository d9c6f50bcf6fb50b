package dev.clawgate.channel.irc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IrcSettingsTest {
    private static ChannelSettings settings(Map<String, String> options) {
        return new ChannelSettings("irc", AccessSettings.defaults(), Map.of(), options);
    }

    @Test
    void theFactoryDeclaresExactlyTheIssuesKeysBesideTheSharedAccessKeys() {
        // SPEC CH-7: [channels.irc] keys; dm_policy, group_policy and allowed_users are every channel's own
        assertThat(new IrcChannelFactory().options())
                .extracting(ChannelOption::key)
                .containsExactly(
                        "server",
                        "port",
                        "tls",
                        "nick",
                        "username",
                        "realname",
                        "password",
                        "sasl_user",
                        "sasl_password",
                        "channels",
                        "text_limit");
        assertThat(new IrcChannelFactory().options())
                .filteredOn(ChannelOption::secret)
                .extracting(ChannelOption::key)
                .containsExactly("password", "sasl_password");
    }

    @Test
    void valuesAreReadWithDefaults() {
        IrcSettings s =
                IrcSettings.of(settings(Map.of("server", "irc.example.org", "tls", "true", "channels", "#a, #b,#a")));
        assertThat(s.port()).isEqualTo(6697);
        assertThat(s.nick()).isEqualTo("clawgate");
        assertThat(s.username()).isEqualTo("clawgate");
        assertThat(s.channels()).containsExactly("#a", "#b");
        assertThat(s.textLimit()).isEqualTo(IrcSettings.DEFAULT_TEXT_LIMIT);
    }

    @Test
    void badValuesAreErrorsNamingTheKey() {
        // SPEC OP-4: each error starts with the key's full path
        assertThatThrownBy(() -> new IrcChannelFactory().check(settings(Map.of("nick", "9lives"))))
                .hasMessageStartingWith("channels.irc.nick ");
        assertThatThrownBy(() -> new IrcChannelFactory().check(settings(Map.of("channels", "#ok,nochannel"))))
                .hasMessageStartingWith("channels.irc.channels ");
        assertThatThrownBy(() -> new IrcChannelFactory().check(settings(Map.of("port", "70000"))))
                .hasMessageStartingWith("channels.irc.port ");
        assertThatThrownBy(() -> new IrcChannelFactory().check(settings(Map.of("text_limit", "10"))))
                .hasMessageStartingWith("channels.irc.text_limit ");
        assertThatThrownBy(() -> new IrcChannelFactory().check(settings(Map.of("sasl_password", "x"))))
                .hasMessageStartingWith("channels.irc.sasl_user ");
        assertThatThrownBy(() -> new IrcChannelFactory().create(settings(Map.of())))
                .hasMessageStartingWith("channels.irc.server is required");
        // a config may be written before the server is known: check leaves a missing server to create and doctor
        new IrcChannelFactory().check(settings(Map.of()));
    }

    @Test
    void secretsAreNotShown() {
        // SPEC OP-6
        IrcSettings s = IrcSettings.of(settings(Map.of(
                "server", "h", "sasl_user", "bot", "sasl_password", "hunter2-secret", "password", "pass-secret")));
        assertThat(s.toString()).doesNotContain("hunter2-secret").doesNotContain("pass-secret");
    }
}
