package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.CliProviderSettings;
import dev.clawgate.core.config.ProviderSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keys of the gemini and cli provider kinds, exactly as issue 23 names them (SPEC SP-4). */
class ProviderKindsConfigTest {
    @TempDir
    Path dir;

    private ClawgateConfig load(String toml, Map<String, String> env) throws Exception {
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, toml);
        return new ConfigLoader().load(file, env);
    }

    @Test
    void aGeminiProviderTakesApiBase() throws Exception {
        ProviderSettings p =
                load("""
                [providers.gem]
                kind = "gemini"
                api_key = "${GEMINI_API_KEY}"
                api_base = "http://127.0.0.1:9999/v1beta"
                model = "gemini-2.5-flash"
                """, Map.of("GEMINI_API_KEY", "AIzaTEST")).providers().get("gem");
        assertThat(p.kind()).isEqualTo("gemini");
        assertThat(p.baseUrl()).isEqualTo("http://127.0.0.1:9999/v1beta");
        assertThat(p.cli()).isNull();
    }

    @Test
    void apiBaseAndBaseUrlTogetherAreAnError() {
        assertThatThrownBy(() -> load("""
                [providers.gem]
                kind = "gemini"
                api_base = "http://127.0.0.1:9999/v1beta"
                base_url = "http://127.0.0.1:9999/v1beta"
                """, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("providers.gem.api_base");
    }

    @Test
    void aCliProviderReadsEveryKey() throws Exception {
        ProviderSettings p = load("""
                [providers.kiro]
                kind = "cli"
                command = "kiro-cli"
                args = ["chat", "--no-interactive", "--model", "{model}"]
                workdir = "work"
                timeout = "10m"
                prompt_via = "file"
                prompt_mode = "full"
                overflow_patterns = ["context window has overflowed", "out of tokens"]
                max_processes = 2
                model = "claude-sonnet-4"
                [providers.kiro.env]
                KIRO_TOKEN = "${KIRO_TOKEN}"
                """, Map.of("KIRO_TOKEN", "t0k")).providers().get("kiro");
        CliProviderSettings cli = p.cli();
        assertThat(cli.command()).isEqualTo("kiro-cli");
        assertThat(cli.args()).containsExactly("chat", "--no-interactive", "--model", "{model}");
        assertThat(cli.workdir()).isEqualTo(dir.resolve("work").toAbsolutePath().normalize());
        assertThat(cli.timeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(cli.promptVia()).isEqualTo(CliProviderSettings.PromptVia.FILE);
        assertThat(cli.promptMode()).isEqualTo(CliProviderSettings.PromptMode.FULL);
        assertThat(cli.overflowPatterns()).containsExactly("context window has overflowed", "out of tokens");
        assertThat(cli.maxProcesses()).isEqualTo(2);
        assertThat(cli.env()).containsExactly(Map.entry("KIRO_TOKEN", "t0k"));
    }

    @Test
    void aCliProviderHasDefaultsAndNeedsNoKey() throws Exception {
        ClawgateConfig config = load("""
                [providers.agent]
                kind = "cli"
                command = "my-agent"
                model = "default"
                """, Map.of());
        CliProviderSettings cli = config.providers().get("agent").cli();
        assertThat(cli.promptVia()).isEqualTo(CliProviderSettings.PromptVia.STDIN);
        assertThat(cli.promptMode()).isEqualTo(CliProviderSettings.PromptMode.MINIMAL);
        assertThat(cli.overflowPatterns()).contains("The context window has overflowed");
        assertThat(cli.timeout()).isEqualTo(CliProviderSettings.DEFAULT_TIMEOUT);
        assertThat(cli.maxProcesses()).isEqualTo(CliProviderSettings.DEFAULT_MAX_PROCESSES);
        assertThat(new dev.clawgate.server.ConfiguredProviders(config.providers()).names())
                .containsExactly("agent");
    }

    @Test
    void cliMistakesAreNamedPrecisely() {
        assertThatThrownBy(() -> load("[providers.agent]\nkind = \"cli\"\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("providers.agent.command");
        assertThatThrownBy(() ->
                        load("[providers.agent]\nkind = \"cli\"\ncommand = \"a\"\nprompt_via = \"pipe\"\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("providers.agent.prompt_via")
                .hasMessageContaining("stdin, file");
        assertThatThrownBy(() ->
                        load("[providers.agent]\nkind = \"cli\"\ncommand = \"a\"\nprompt_mode = \"tiny\"\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("minimal, full");
        assertThatThrownBy(
                        () -> load("[providers.agent]\nkind = \"cli\"\ncommand = \"a\"\nmax_processes = 0\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("providers.agent.max_processes");
        assertThatThrownBy(() -> load("[providers.o]\nkind = \"openai\"\ncommand = \"a\"\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("providers.o.command")
                .hasMessageContaining("only for kind");
        assertThatThrownBy(() ->
                        load("[providers.agent]\nkind = \"cli\"\ncommand = \"a\"\nprompt_modes = \"full\"\n", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("prompt_mode");
    }
}
