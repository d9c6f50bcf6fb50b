package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.AgentSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DispatchSettings;
import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.HistorySettings;
import dev.clawgate.core.config.InboundSettings;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.config.QueueSettings;
import dev.clawgate.core.config.RouteSettings;
import dev.clawgate.core.config.SessionSettings;
import dev.clawgate.core.config.ToolSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private ConfigFixture fixture() {
        return new ConfigFixture(dir);
    }

    /** The SPEC defaults with data_dir and workspace under {@code base}. */
    static ClawgateConfig defaultsUnder(Path base) {
        ClawgateConfig d = ClawgateConfig.defaults();
        GatewaySettings g = d.gateway();
        AgentSettings a = d.agent();
        return new ClawgateConfig(
                new GatewaySettings(base.resolve("data"), g.bind(), g.authToken()),
                new AgentSettings(
                        a.provider(),
                        a.model(),
                        a.maxToolIterations(),
                        a.messageTimeoutSecs(),
                        a.timeoutScaleCap(),
                        base.resolve("workspace"),
                        a.showToolCalls(),
                        a.fallback()),
                d.providers(),
                d.routes(),
                d.history(),
                d.tools(),
                d.dispatch());
    }

    @Test
    void missingFileGivesTheDefaultsWithPathsUnderTheWorkingDirectory() {
        // SPEC defaults table, SPEC DI-3, DI-6, HI-2, HI-4
        ClawgateConfig config = new ConfigLoader().loadOrDefaults(dir.resolve("absent.toml"), Map.of());

        assertThat(config).isEqualTo(defaultsUnder(Path.of("").toAbsolutePath()));
        assertThat(config.queue().mode()).isEqualTo(QueueMode.STEER);
        assertThat(config.agent().turnBudgetSecs()).isEqualTo(1200);
        assertThat(config.history().maxMessages()).isEqualTo(50);
        assertThat(config.history().maxChars()).isEqualTo(400_000);
        assertThat(config.agent().showToolCalls()).isFalse();
        assertThat(config.dispatch().maxInFlight()).isZero();
        assertThat(config.gateway().bind()).isEqualTo("127.0.0.1:8787");
        assertThat(config.gateway().authToken()).isNull();
        assertThat(config.providers()).isEmpty();
    }

    @Test
    void anExplicitlyNamedFileThatIsMissingIsAnError() {
        // SPEC OP-4
        Path absent = dir.resolve("nope.toml");
        assertThatThrownBy(() -> new ConfigLoader().load(absent, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage(
                        "config file " + absent + " does not exist; write one with 'clawgate init' or fix the path");
        assertThatThrownBy(() -> new ConfigLoader().load(new ConfigLocation(absent, true), Map.of()))
                .isInstanceOf(ConfigException.class);
        assertThat(new ConfigLoader()
                        .load(new ConfigLocation(absent, false), Map.of())
                        .providers())
                .isEmpty();
    }

    @Test
    void aFileWithoutKeysGivesTheDefaultsWithPathsUnderTheFilesDirectory() {
        // SPEC defaults table
        assertThat(fixture().load("# only a comment\n")).isEqualTo(defaultsUnder(dir.toAbsolutePath()));
        assertThat(fixture().load("# only a comment\n[agent]\n\n[gateway]\nbind = \"127.0.0.1:8787\"\n"))
                .isEqualTo(defaultsUnder(dir.toAbsolutePath()));
    }

    @Test
    void everyKeySetInTheFileReachesTheConfig() {
        // SPEC defaults table, SPEC RT-2, DI-3, DI-6, HI-2, HI-4
        String toml = """
                [gateway]
                data_dir = "/srv/clawgate/data"
                bind = "0.0.0.0:9000"
                auth_token = "tok"

                [agent]
                provider = "local"
                model = "llama3.1"
                max_tool_iterations = 7
                message_timeout_secs = 90
                timeout_scale_cap = 3
                workspace = "/srv/clawgate/ws"
                show_tool_calls = true
                fallback = ["cloud"]

                [providers.local]
                kind = "openai"
                base_url = "http://127.0.0.1:11434/v1"
                native_tools = false
                model = "llama3.1"
                timeout_secs = 30

                [providers.cloud]
                api_key = "sk-test"
                model = "gpt-4o-mini"

                [[routes]]
                hint = "code"
                keywords = ["code", "bug"]
                provider = "cloud"
                model = "gpt-4o"

                [[routes]]
                hint = "chat"
                keywords = ["hello"]

                [history]
                max_messages = 12
                max_chars = 5000000000

                [tools]
                max_result_chars = 100
                shell_allowlist = ["ls"]
                shell_timeout_secs = 5
                shell_output_cap = 200

                [messages.queue]
                mode = "collect"
                cap = 3

                [dispatch]
                max_in_flight = 16
                bus_capacity = 10
                """;

        ClawgateConfig config = fixture().load(toml);

        assertThat(config)
                .isEqualTo(new ClawgateConfig(
                        new GatewaySettings(Path.of("/srv/clawgate/data"), "0.0.0.0:9000", "tok"),
                        new AgentSettings(
                                "local", "llama3.1", 7, 90, 3, Path.of("/srv/clawgate/ws"), true, List.of("cloud")),
                        Map.of(
                                "local",
                                new ProviderSettings(
                                        "local", "openai", "http://127.0.0.1:11434/v1", null, false, "llama3.1", 30),
                                "cloud",
                                new ProviderSettings(
                                        "cloud",
                                        "openai",
                                        null,
                                        "sk-test",
                                        null,
                                        "gpt-4o-mini",
                                        ConfigLoader.DEFAULT_PROVIDER_TIMEOUT_SECS)),
                        List.of(
                                new RouteSettings("code", List.of("code", "bug"), "cloud", "gpt-4o"),
                                new RouteSettings("chat", List.of("hello"), null, null)),
                        new HistorySettings(12, 5_000_000_000L),
                        new ToolSettings(100, List.of("ls"), 5, 200),
                        new DispatchSettings(10, 16),
                        SessionSettings.defaults(),
                        InboundSettings.defaults(),
                        new QueueSettings(QueueMode.COLLECT, Map.of(), 500, 3, DropPolicy.SUMMARIZE),
                        Map.of()));
        assertThat(config.providers().keySet()).containsExactly("local", "cloud");
        assertThat(config.agent().turnBudgetSecs()).isEqualTo(90 * 3);
    }

    @Test
    void relativePathsResolveAgainstTheConfigFilesDirectory() {
        // SPEC OP-1
        ClawgateConfig config = fixture().load("""
                [gateway]
                data_dir = "state/db"
                [agent]
                workspace = "../sibling/ws"
                """);

        assertThat(config.gateway().dataDir()).isEqualTo(dir.toAbsolutePath().resolve("state/db"));
        assertThat(config.agent().workspace())
                .isEqualTo(dir.toAbsolutePath().getParent().resolve("sibling/ws"));
        assertThat(config.gateway().dataDir()).isAbsolute();
    }

    @Test
    void aTildePathResolvesAgainstHome() {
        // SPEC OP-1
        ClawgateConfig config = fixture().load("[gateway]\ndata_dir = \"~/clawgate\"\n", Map.of("HOME", "/home/ada"));
        assertThat(config.gateway().dataDir()).isEqualTo(Path.of("/home/ada/clawgate"));
    }

    @Test
    void retiredQueueModeNamesMapToSteerWithAWarning() {
        // SPEC DI-3
        for (String retired : List.of("queue", "steer-backlog")) {
            try (CapturedLogs logs = new CapturedLogs()) {
                ClawgateConfig config = fixture().load("[messages.queue]\nmode = \"" + retired + "\"\n");

                assertThat(config.queue().mode()).isEqualTo(QueueMode.STEER);
                assertThat(logs.lines())
                        .singleElement()
                        .asString()
                        .startsWith("WARN messages.queue.mode in ")
                        .contains("retired queue mode '" + retired + "'", "write mode = \"steer\"");
            }
        }
    }

    @Test
    void currentQueueModeNamesLoadWithoutAWarning() {
        // SPEC DI-3
        for (QueueMode mode : QueueMode.values()) {
            try (CapturedLogs logs = new CapturedLogs()) {
                ClawgateConfig config = fixture()
                        .load("[messages.queue]\nmode = \"" + mode.name().toLowerCase() + "\"\n");
                assertThat(config.queue().mode()).isEqualTo(mode);
                assertThat(logs.lines()).isEmpty();
            }
        }
    }

    @Test
    void anUnknownQueueModeIsAnErrorListingTheValidModes() {
        // SPEC DI-3
        assertThat(fixture().error("[messages.queue]\nmode = \"fifo\"\n"))
                .endsWith("'messages.queue.mode' in " + dir.resolve("clawgate.toml")
                        + " is 'fifo', which is not a queue mode; use one of steer, followup, collect, interrupt");
    }

    @Test
    void anUnknownProviderKindIsAnErrorListingTheKnownKinds() {
        // SPEC SP-3 (OpenAI-compatible providers)
        assertThat(fixture().error("[providers.claude]\nkind = \"antropic\"\n"))
                .contains(
                        "'providers.claude.kind'",
                        "is 'antropic', which is not a provider kind; known kinds: anthropic, cli, gemini, openai");
    }

    @Test
    void anAnthropicProviderTakesItsMaxTokens() {
        // SPEC SP-4: the Messages API requires max_tokens; unset leaves the provider's default
        ClawgateConfig config = fixture().load("""
                [agent]
                provider = "claude"

                [providers.claude]
                kind = "anthropic"
                api_key = "k"
                max_tokens = 2048

                [providers.other]
                kind = "anthropic"
                """);
        assertThat(config.providers().get("claude"))
                .isEqualTo(new ProviderSettings(
                        "claude",
                        "anthropic",
                        null,
                        "k",
                        null,
                        null,
                        ConfigLoader.DEFAULT_PROVIDER_TIMEOUT_SECS,
                        2048));
        assertThat(config.providers().get("other").maxTokens()).isNull();
        assertThat(fixture().error("[providers.claude]\nkind = \"anthropic\"\nmax_tokens = 0\n"))
                .contains("max_tokens");
    }

    @Test
    void theKnownKindsCanComeFromTheFactoriesFound() {
        // SPEC SP-3
        Path file = fixture().write("[providers.claude]\nkind = \"anthropic\"\n");
        ClawgateConfig config = new ConfigLoader(Set.of("openai", "anthropic")).load(file, Map.of());
        assertThat(config.providers().get("claude").kind()).isEqualTo("anthropic");
    }

    @Test
    void theOnlyProviderNeedsNoAgentProviderButSeveralDo() {
        // SPEC RT-2
        assertThat(fixture().load("[providers.a]\n").agent().provider()).isNull();
        assertThat(fixture().error("[providers.a]\n[providers.b]\n"))
                .contains("'agent.provider'", "several providers are configured; set it to one of: a, b");
    }

    @Test
    void providerNamesUsedElsewhereMustBeConfigured() {
        // SPEC RT-2
        assertThat(fixture().error("[agent]\nprovider = \"openai\"\n"))
                .contains(
                        "'agent.provider'",
                        "names provider 'openai', but there is no [providers.openai]; add that table");
        assertThat(fixture().error("[agent]\nprovider = \"opneai\"\n[providers.openai]\n"))
                .endsWith("did you mean 'openai'?");
        assertThat(fixture().error("[agent]\nfallback = [\"backup\"]\n[providers.main]\n"))
                .contains("'agent.fallback[0]'", "no [providers.backup]", "configured providers: main");
        assertThat(fixture().error("[providers.a]\n[[routes]]\nhint = \"x\"\nkeywords = [\"x\"]\nprovider = \"b\"\n"))
                .contains("'routes[0].provider'", "no [providers.b]");
    }

    @Test
    void aRouteNeedsAHintAndKeywords() {
        // SPEC RT-2
        assertThat(fixture().error("[[routes]]\nkeywords = [\"x\"]\n"))
                .contains("'routes[0].hint'", "every [[routes]] entry needs a hint");
        assertThat(fixture()
                        .error("[[routes]]\nhint = \"x\"\nkeywords = [\"x\"]\n[[routes]]\nhint = "
                                + "\"y\"\nkeywords = []\n"))
                .contains("'routes[1].keywords'", "list the words that select this route");
    }
}
