package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a channel module declares its own [channels.<name>] keys: its ChannelFactory's options() and check(), found by
 * ChannelKeys.
 */
class ConfigChannelKeysTest {
    @TempDir
    Path dir;

    /** Found through META-INF/services in the test below: a channel module declares its keys in its factory. */
    public static final class ExampleChatFactory implements ChannelFactory {
        @Override
        public String name() {
            return "examplechat";
        }

        @Override
        public List<ChannelOption> options() {
            return List.of(
                    ChannelOption.string("server_url", "The chat server.").withDefault("https://chat.example"),
                    ChannelOption.integer("max_upload_mb", "The largest upload."),
                    ChannelOption.string("token", "The bot's token.").asSecret());
        }

        @Override
        public void check(ChannelSettings settings) {
            String mb = settings.options().get("max_upload_mb");
            if (mb != null && Integer.parseInt(mb) > 100) {
                throw new IllegalArgumentException("channels.examplechat.max_upload_mb must be at most 100, got " + mb);
            }
        }

        @Override
        public Channel create(ChannelSettings settings) {
            throw new UnsupportedOperationException("the example declares keys only");
        }
    }

    @Test
    void aServiceOnTheClassPathDeclaresKeysTheLoaderThenAccepts() throws IOException {
        // SPEC IN-5 (channel tables), defaults table (unknown keys are errors)
        Path services = Files.createDirectories(dir.resolve("cp/META-INF/services"));
        Files.writeString(services.resolve(ChannelFactory.class.getName()), ExampleChatFactory.class.getName() + "\n");
        ChannelKeys keys;
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {dir.resolve("cp").toUri().toURL()}, getClass().getClassLoader())) {
            keys = ChannelKeys.discovered(loader);
        }
        // the example beside every channel the server brings (each module adds its own; none is listed here)
        assertThat(keys.channels())
                .contains("examplechat")
                .containsAll(ChannelKeys.discovered().channels())
                .hasSize(ChannelKeys.discovered().channels().size() + 1);
        assertThat(keys.keysOf("examplechat")).containsExactly("server_url", "max_upload_mb", "token");

        ConfigFixture fixture = new ConfigFixture(dir);
        Path file =
                fixture.write("[channels.examplechat]\nserver_url = \"https://chat.example\"\nmax_upload_mb = 20\n");
        ClawgateConfig config = new ConfigLoader(ConfigLoader.DEFAULT_KINDS, keys).load(file, Map.of());
        assertThat(config.channel("examplechat").options())
                .isEqualTo(Map.of("server_url", "https://chat.example", "max_upload_mb", "20"));
        assertThatThrownBy(() -> new ConfigLoader(ConfigLoader.DEFAULT_KINDS, ChannelKeys.none()).load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("unknown key 'channels.examplechat.server_url'");
        // the module's own check runs in the loader; a misspelt key names the declared one
        Path tooBig = fixture.write("[channels.examplechat]\nmax_upload_mb = 500\n");
        assertThatThrownBy(() -> new ConfigLoader(ConfigLoader.DEFAULT_KINDS, keys).load(tooBig, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("'channels.examplechat.max_upload_mb'")
                .hasMessageContaining("at most 100");
        Path misspelt = fixture.write("[channels.examplechat]\nserver_ulr = \"https://chat.example\"\n");
        assertThatThrownBy(() -> new ConfigLoader(ConfigLoader.DEFAULT_KINDS, keys).load(misspelt, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("channels.examplechat.server_ulr")
                .hasMessageContaining("did you mean 'channels.examplechat.server_url'");
        // SPEC OP-4, OP-6: init documents the module's keys, a secret as an environment reference
        assertThat(StarterConfig.channelKeys(keys))
                .contains(
                        "# [channels.examplechat]\n",
                        "# The chat server.\n",
                        "# server_url = \"https://chat.example\"\n",
                        "# token = \"${EXAMPLECHAT_TOKEN}\"");
    }

    @Test
    void aListOptionIsAnArrayOfStringsInTheFileAndReachesTheChannelAsItsItems() {
        // SPEC IN-5 (channel tables): IRC's channels and XMPP's rooms are lists, as TOML writes them
        ConfigFixture fixture = new ConfigFixture(dir);
        ChannelKeys keys = ChannelKeys.discovered();
        Path file = fixture.write("[channels.irc]\nserver = \"irc.example.org\"\nchannels = [\"#a\", \"#b-c\"]\n"
                + "[channels.xmpp]\njid = \"bot@example.org\"\npassword = \"pw\"\nrooms = []\n");
        ClawgateConfig config = new ConfigLoader(ConfigLoader.DEFAULT_KINDS, keys).load(file, Map.of());
        assertThat(config.channel("irc").options()).containsEntry("channels", "#a,#b-c");
        assertThat(config.channel("xmpp").options()).containsEntry("rooms", "");
        Path comma = fixture.write("[channels.irc]\nserver = \"irc.example.org\"\nchannels = [\"#a\", \"#b,#c\"]\n");
        assertThatThrownBy(() -> new ConfigLoader(ConfigLoader.DEFAULT_KINDS, keys).load(comma, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("channels.irc.channels[1]")
                .hasMessageContaining("comma");
        Path scalar = fixture.write("[channels.irc]\nserver = \"irc.example.org\"\nchannels = \"#a\"\n");
        assertThatThrownBy(() -> new ConfigLoader(ConfigLoader.DEFAULT_KINDS, keys).load(scalar, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("channels.irc.channels")
                .hasMessageContaining("a list of strings");
        // init writes a list as TOML does
        assertThat(StarterConfig.channelKeys(keys)).contains("# channels = (no default; set it to use the channel)");
    }

    @Test
    void theBuiltInChannelsDeclareTheirKeysOnTheServersClassPath() {
        // SPEC IN-5, CH-2, CH-3, OUT-1 (every channel's text limit is configurable)
        // the channel modules the server ships are found on its class path (each module adds its own line)
        assertThat(ChannelKeys.discovered().channels()).contains("irc", "slack", "telegram", "webchat", "webhook");
        assertThat(ChannelKeys.discovered().keysOf("irc"))
                .containsExactlyInAnyOrder(
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
        assertThat(ChannelKeys.discovered().keysOf("webchat"))
                .containsExactlyInAnyOrder("enabled", "text_limit", "preview_interval_ms");
        assertThat(ChannelKeys.discovered().keysOf("telegram"))
                .contains("bot_token", "api_base", "mode", "webhook_secret", "stream_mode", "text_limit");
        assertThat(ChannelKeys.discovered().keysOf("webhook"))
                .containsExactlyInAnyOrder("path", "secret", "callback_url", "reconcile", "text_limit");
        assertThat(ChannelKeys.discovered().keysOf("matrix"))
                .containsExactlyInAnyOrder(
                        "homeserver",
                        "access_token",
                        "user_id",
                        "auto_join",
                        "stream_mode",
                        "ack_reactions",
                        "text_limit");
        assertThat(ChannelKeys.none().keysOf("telegram")).isEmpty();
    }

    @Test
    void theWebChatIsSwitchedOffWithEnabledFalseAndAMisspeltKeyNamesTheRightOne() {
        // SPEC CH-2, defaults table (an unknown key names the nearest)
        ConfigFixture fixture = new ConfigFixture(dir);
        ClawgateConfig off = new ConfigLoader().load(fixture.write("[channels.webchat]\nenabled = false\n"), Map.of());
        assertThat(off.channel("webchat").options()).isEqualTo(Map.of("enabled", "false"));
        assertThatThrownBy(
                        () -> new ConfigLoader().load(fixture.write("[channels.webchat]\nenabeld = false\n"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("channels.webchat.enabeld")
                .hasMessageContaining("enabled");
        assertThatThrownBy(() ->
                        new ConfigLoader().load(fixture.write("[channels.webchat]\nenabled = \"no\"\n"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("channels.webchat.enabled");
    }

    @Test
    void badDeclarationsAreProgrammingErrorsNamingTheChannelAndKey() {
        // SPEC IN-5
        assertThatThrownBy(() -> ChannelKeys.of(Map.of("telegram", Map.of("dm_policy", "string"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("key 'dm_policy' of channel 'telegram' is a key every channel has");
        assertThatThrownBy(() -> ChannelKeys.of(Map.of("telegram", Map.of("accounts", "string"))))
                .hasMessageContaining("is a key every channel has");
        assertThatThrownBy(() -> ChannelKeys.of(Map.of("telegram", Map.of("token", "secret"))))
                .hasMessage("key 'token' of channel 'telegram' has type 'secret'; use string, integer or boolean");
        assertThatThrownBy(() -> ChannelKeys.of(Map.of("telegram", Map.of("Bot-Token", "string"))))
                .hasMessage("key 'Bot-Token' of channel 'telegram' must use lower-case letters, digits and _");
        assertThatThrownBy(() -> ChannelKeys.of(Map.of("tele gram", Map.of("a", "string"))))
                .hasMessage("channel name 'tele gram' must use only letters, digits, - and _");
    }

    @Test
    void aChannelWithAnEmptyDeclarationHasOnlyTheSharedKeys() {
        // SPEC IN-5
        ChannelKeys keys = ChannelKeys.of(Map.of("irc", Map.of()));
        assertThat(keys.channels()).isEmpty();
        assertThat(ConfigSchema.root(keys)).isSameAs(ConfigSchema.ROOT);
    }
}
