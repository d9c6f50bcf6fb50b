package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.config.ProviderSettings;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The starter clawgate.toml that `clawgate init` writes (SPEC OP-4). */
class StarterConfigTest {
    private static final Pattern HEADER = Pattern.compile("^# (\\[\\[?([a-z_.]+)]]?)$");
    private static final Pattern KEY_LINE = Pattern.compile("^# (?:Example: )?([a-z_]+) = .*$");
    private static final String PROVIDERS_MARKER = "# Providers.";

    @TempDir
    Path dir;

    @Test
    void theStarterAsWrittenLoadsToTheDefaults() {
        // SPEC OP-4, SPEC defaults table
        assertThat(new ConfigFixture(dir).load(StarterConfig.text()))
                .isEqualTo(ConfigLoaderTest.defaultsUnder(dir.toAbsolutePath()));
    }

    @Test
    void everyCommentedDefaultUncommentedStillLoadsToTheDefaults() {
        // SPEC OP-4, SPEC defaults table, DI-3, DI-6, HI-1, HI-2, HI-4, IN-1, IN-2, IN-4, IN-6
        String text = StarterConfig.text();
        String defaultsPart = text.substring(0, text.indexOf(PROVIDERS_MARKER));
        String uncommented = defaultsPart
                .lines()
                .map(line ->
                        HEADER.matcher(line).matches() || line.matches("^# [a-z_]+ = .*$") ? line.substring(2) : line)
                .collect(Collectors.joining("\n"));
        assertThat(uncommented)
                .contains(
                        "\n[gateway]\n",
                        "\nmax_tool_iterations = 10\n",
                        "\nmode = \"steer\"\n",
                        "\n[session]\n",
                        "\ndm_scope = \"per-channel-peer\"\n",
                        "\n[messages.queue.by_channel]\n",
                        "\nmax_age = \"1h\"\n",
                        "\nttl_secs = 1200\n",
                        "\nhistory_limit = 50\n",
                        "\ndrop = \"summarize\"\n",
                        "\nowner = []\n");

        assertThat(new ConfigFixture(dir).load(uncommented))
                .isEqualTo(ConfigLoaderTest.defaultsUnder(dir.toAbsolutePath()));
    }

    @Test
    void everyKnownKeyIsDocumented() {
        // SPEC OP-4, IN-5, IN-6 (channel and account keys), DI-3, IN-2 (by_channel entries)
        Set<String> documented = new HashSet<>();
        String table = "";
        for (String line : StarterConfig.text().lines().toList()) {
            Matcher header = HEADER.matcher(line);
            Matcher key = KEY_LINE.matcher(line);
            if (header.matches()) {
                table = header.group(2);
            } else if (key.matches()) {
                documented.add(table.isEmpty() ? key.group(1) : table + "." + key.group(1));
            }
        }
        List<String> known = ConfigSchema.knownPaths();
        List<String> leaves = known.stream()
                .filter(p -> known.stream().noneMatch(q -> q.startsWith(p + ".")))
                .toList();
        assertThat(leaves)
                .contains(
                        "channels.<name>.accounts.<name>.dm_policy",
                        "messages.queue.by_channel.<name>",
                        "inbox.max_age");

        assertThat(leaves)
                .allSatisfy(leaf -> assertThat(documented)
                        .as("a documented example of %s", leaf)
                        .anyMatch(path -> asPattern(leaf).matcher(path).matches()));
    }

    @Test
    void uncommentingTheChannelExampleGivesItsAccessRules() {
        // SPEC OP-4, IN-5, IN-6
        String toml = uncommentExample(StarterConfig.text(), "# Example for Telegram");
        ClawgateConfig config = new ConfigFixture(dir).load(toml);

        ChannelSettings telegram = config.channel("telegram");
        assertThat(config.channels()).containsOnlyKeys("telegram");
        assertThat(telegram.access()).isEqualTo(AccessSettings.defaults());
        assertThat(telegram.accounts()).containsOnlyKeys("support");
        assertThat(telegram.accessFor("support"))
                .isEqualTo(new AccessSettings(
                        DmPolicy.ALLOWLIST, List.of("123456789"), GroupPolicy.DISABLED, List.of(), true));
        assertThat(config.inbound().groupHistoryLimitFor("telegram")).isEqualTo(50);
    }

    /** A known path as a pattern: each {@code <name>} stands for any one name. */
    private static Pattern asPattern(String knownPath) {
        return Pattern.compile(Arrays.stream(knownPath.split("\\."))
                .map(part -> part.equals(ConfigSchema.NAME_PLACEHOLDER) ? "[a-z0-9_-]+" : Pattern.quote(part))
                .collect(Collectors.joining("\\.")));
    }

    @Test
    void uncommentingTheOpenAiExampleGivesAnOpenAiProvider() {
        // SPEC OP-4, OP-6
        String toml = uncommentExample(StarterConfig.text(), "# OpenAI:");

        ClawgateConfig withKey = new ConfigFixture(dir).load(toml, Map.of("OPENAI_API_KEY", "sk-from-env"));
        ClawgateConfig withoutKey = new ConfigFixture(dir).load(toml, Map.of());

        assertThat(withKey.providers()).containsOnlyKeys("openai");
        assertThat(withKey.providers().get("openai"))
                .isEqualTo(new ProviderSettings(
                        "openai",
                        "openai",
                        null,
                        "sk-from-env",
                        null,
                        "gpt-4o-mini",
                        ConfigLoader.DEFAULT_PROVIDER_TIMEOUT_SECS));
        assertThat(withoutKey.providers().get("openai").apiKey()).isNull();
    }

    @Test
    void uncommentingTheAnthropicExampleGivesAnAnthropicProvider() {
        // SPEC OP-4, SP-4
        String toml = uncommentExample(StarterConfig.text(), "# Anthropic (Claude):");
        ClawgateConfig config = new ConfigFixture(dir).load(toml, Map.of("ANTHROPIC_API_KEY", "sk-ant-from-env"));
        assertThat(config.providers()).containsOnlyKeys("anthropic");
        assertThat(config.providers().get("anthropic"))
                .isEqualTo(new ProviderSettings(
                        "anthropic",
                        "anthropic",
                        null,
                        "sk-ant-from-env",
                        null,
                        "claude-sonnet-4-5",
                        ConfigLoader.DEFAULT_PROVIDER_TIMEOUT_SECS,
                        4096));
    }

    @ParameterizedTest
    @CsvSource({
        "'# OpenRouter:', openrouter, https://openrouter.ai/api/v1",
        "'# Ollama (local):', ollama, http://127.0.0.1:11434/v1",
        "'# llama.cpp server (local):', llamacpp, http://127.0.0.1:8080/v1",
        "'# vLLM (local):', vllm, http://127.0.0.1:8000/v1"
    })
    void eachLocalAndHostedExampleLoadsWithItsEndpoint(String label, String name, String baseUrl) {
        // SPEC OP-4, SP-3
        String toml = uncommentExample(StarterConfig.text(), label);
        ClawgateConfig config = new ConfigFixture(dir).load(toml, Map.of("OPENROUTER_API_KEY", "k"));
        assertThat(config.providers()).containsOnlyKeys(name);
        assertThat(config.providers().get(name).baseUrl()).isEqualTo(baseUrl);
        assertThat(config.providers().get(name).kind()).isEqualTo("openai");
        // issue 14: each example works on the first message: the request names a model
        assertThat(config.providers().get(name).defaultModel()).as(name).isNotBlank();
    }

    @Test
    void theRouteExampleLoadsTogetherWithTheOpenAiExample() {
        // SPEC RT-2, OP-4
        String text = StarterConfig.text();
        String toml = uncommentExample(uncommentExample(text, "# OpenAI:"), "# the first match wins");
        ClawgateConfig config = new ConfigFixture(dir).load(toml, Map.of());
        assertThat(config.routes()).singleElement().satisfies(r -> {
            assertThat(r.hint()).isEqualTo("code");
            assertThat(r.provider()).isEqualTo("openai");
        });
    }

    /** Uncomments the block of lines that follows the line starting with {@code label}, up to a blank line. */
    private static String uncommentExample(String text, String label) {
        List<String> lines = text.lines().toList();
        StringBuilder out = new StringBuilder();
        boolean inBlock = false;
        boolean found = false;
        for (String line : lines) {
            if (line.startsWith(label)) {
                inBlock = true;
                found = true;
                out.append(line).append('\n');
                continue;
            }
            if (line.isBlank()) inBlock = false;
            boolean code = inBlock && (HEADER.matcher(line).matches() || line.matches("^# [a-z_]+ = .*$"));
            out.append(code ? line.substring(2) : line).append('\n');
        }
        assertThat(found).as("starter has a block labelled %s", label).isTrue();
        return out.toString();
    }
}
