package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.ClawgateConfig;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a channel module declares its own [channels.<name>] keys: ChannelKeys and the ChannelConfigKeys service. */
class ConfigChannelKeysTest {
    @TempDir
    Path dir;

    /** Found through META-INF/services in the test below. */
    public static final class ExampleChatKeys implements ChannelConfigKeys {
        @Override
        public String channel() {
            return "examplechat";
        }

        @Override
        public Map<String, String> keys() {
            Map<String, String> keys = new LinkedHashMap<>();
            keys.put("server_url", "string");
            keys.put("max_upload_mb", "integer");
            return keys;
        }
    }

    @Test
    void aServiceOnTheClassPathDeclaresKeysTheLoaderThenAccepts() throws IOException {
        // SPEC IN-5 (channel tables), defaults table (unknown keys are errors)
        Path services = Files.createDirectories(dir.resolve("cp/META-INF/services"));
        Files.writeString(services.resolve(ChannelConfigKeys.class.getName()), ExampleChatKeys.class.getName() + "\n");
        ChannelKeys keys;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("cp").toUri().toURL()}, getClass().getClassLoader())) {
            keys = ChannelKeys.discovered(loader);
        }
        assertThat(keys.channels()).containsExactlyInAnyOrder("examplechat", "telegram", "webchat", "webhook");
        assertThat(keys.keysOf("examplechat")).containsExactly("server_url", "max_upload_mb");

        ConfigFixture fixture = new ConfigFixture(dir);
        Path file = fixture.write("[channels.examplechat]\nserver_url = \"https://chat.example\"\nmax_upload_mb = 20\n");
        ClawgateConfig config = new ConfigLoader(ConfigLoader.DEFAULT_KINDS, keys).load(file, Map.of());
        assertThat(config.channel("examplechat").options()).isEqualTo(Map.of("server_url", "https://chat.example", "max_upload_mb", "20"));
        assertThatThrownBy(() -> new ConfigLoader(ConfigLoader.DEFAULT_KINDS, ChannelKeys.none()).load(file, Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("unknown key 'channels.examplechat.server_url'");
    }

    @Test
    void theBuiltInChannelsDeclareTheirKeysOnTheServersClassPath() {
        // SPEC IN-5, CH-2, CH-3, OUT-1 (every channel's text limit is configurable)
        assertThat(ChannelKeys.discovered().channels()).containsExactlyInAnyOrder("telegram", "webchat", "webhook");
        assertThat(ChannelKeys.discovered().keysOf("webchat")).containsExactlyInAnyOrder("enabled", "text_limit", "preview_interval_ms");
        assertThat(ChannelKeys.discovered().keysOf("telegram")).contains("bot_token", "api_base", "mode", "webhook_secret", "stream_mode",
                "text_limit");
        assertThat(ChannelKeys.discovered().keysOf("webhook")).containsExactlyInAnyOrder("path", "secret", "callback_url", "reconcile",
                "text_limit");
        assertThat(ChannelKeys.none().keysOf("telegram")).isEmpty();
    }

    @Test
    void theWebChatIsSwitchedOffWithEnabledFalseAndAMisspeltKeyNamesTheRightOne() {
        // SPEC CH-2, defaults table (an unknown key names the nearest)
        ConfigFixture fixture = new ConfigFixture(dir);
        ClawgateConfig off = new ConfigLoader().load(fixture.write("[channels.webchat]\nenabled = false\n"), Map.of());
        assertThat(off.channel("webchat").options()).isEqualTo(Map.of("enabled", "false"));
        assertThatThrownBy(() -> new ConfigLoader().load(fixture.write("[channels.webchat]\nenabeld = false\n"), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("channels.webchat.enabeld").hasMessageContaining("enabled");
        assertThatThrownBy(() -> new ConfigLoader().load(fixture.write("[channels.webchat]\nenabled = \"no\"\n"), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("channels.webchat.enabled");
    }

    @Test
    void badDeclarationsAreProgrammingErrorsNamingTheChannelAndKey() {
        // SPEC IN-5
        assertThatThrownBy(() -> ChannelKeys.of(Map.of("telegram", Map.of("dm_policy", "string"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("key 'dm_policy' of channel 'telegram' is a key every channel has");
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
