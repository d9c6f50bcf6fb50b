package dev.clawgate.server;

import static dev.clawgate.server.GatewayHarness.chat;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.testkit.anthropic.FakeAnthropicServer;
import dev.clawgate.testkit.cli.FakeAgentCli;
import dev.clawgate.testkit.gemini.FakeGeminiServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real gateway with a {@code kind = "cli"} provider running a real agent-like program ({@link FakeAgentCli}),
 * driven over its HTTP API (SPEC SP-4, SP-3, HI-5, AG-2); and a fallback chain across kinds: Anthropic, then Gemini,
 * then the CLI (SPEC SP-4).
 */
class CliProviderEndToEndTest {
    private static final String ANTHROPIC_KEY = "sk-ant-api03-e2e-fallback-0123";
    private static final String GEMINI_KEY = "AIzaE2EFALLBACK0123456789";

    @TempDir
    Path dir;

    private Gateway gateway;
    private FakeAnthropicServer anthropic;
    private FakeGeminiServer gemini;

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        if (anthropic != null) anthropic.close();
        if (gemini != null) gemini.close();
    }

    private int start(String agent, String providers, Map<String, String> env) throws Exception {
        Files.createDirectories(dir.resolve("workspace"));
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, """
                [gateway]
                data_dir = "data"
                bind = "127.0.0.1:0"

                [agent]
                workspace = "workspace"
                %s

                %s
                """.formatted(agent, providers));
        ClawgateConfig cfg = new ConfigLoader().load(file, env);
        gateway = Gateway.start(cfg, GatewayOptions.server());
        return gateway.httpPort();
    }

    private String cliProvider(String name, String extraEnv) {
        return """
                [providers.%s]
                kind = "cli"
                command = "bash"
                args = ["%s"]
                model = "fake-agent"
                timeout = "60s"
                """.formatted(name, FakeAgentCli.script())
                + (extraEnv.isBlank() ? "" : "[providers." + name + ".env]\n" + extraEnv + "\n");
    }

    @Test
    void theAgentProgramAnswersAndItsToolCallRunsAGatewayTool() throws Exception {
        // SPEC SP-4, SP-3, AG-1: the program's <tool_call> runs file_read, its result goes back in the next prompt
        Path promptOut = dir.resolve("prompt.txt");
        int port = start("provider = \"agent\"", cliProvider("agent", """
                FAKE_AGENT_TOOL_CALL = '{"name": "file_read", "arguments": {"path": "note.txt"}}'
                FAKE_AGENT_PROMPT_OUT = "%s"
                """.formatted(promptOut)), Map.of());
        Files.writeString(dir.resolve("workspace/note.txt"), "pong-42");
        assertThat(chat(port, "alice", "hello agent", null).content()).isEqualTo("You said: hello agent");
        String reply = chat(port, "alice", "please use a tool", null).content();
        assertThat(reply).contains("The tool said: pong-42").doesNotContain("<tool_call>");
        // SPEC SP-3 beyond: the program got the tool protocol but not the sections it has itself
        String prompt = Files.readString(promptOut);
        assertThat(prompt)
                .contains("## Tools", "<tool_call>", "file_read", "[Tool results]")
                .doesNotContain("## Workspace", "## Runtime", "## Safety", "## Current Date & Time");
    }

    @Test
    void theProgramsOverflowNoticeCompactsTheSessionAndTheRetrySucceeds() throws Exception {
        // SPEC HI-5: the seed's "The context window has overflowed" now compacts, and the turn is retried once
        int port = start("provider = \"agent\"", cliProvider("agent", "FAKE_AGENT_MAX_PROMPT = \"4000\""), Map.of());
        String first = chat(port, "dave", "a".repeat(1500), null).content();
        assertThat(first).startsWith("You said: aaaa");
        GatewayHarness.Reply second = chat(port, "dave", "b".repeat(1500), null);
        assertThat(second.content())
                .contains("compacted")
                .contains("You said: bbbb")
                .doesNotContain("context window has overflowed");
    }

    @Test
    void stopKillsTheProgramAndEverythingItStarted() throws Exception {
        // SPEC AG-2, DI-5: /stop ends the turn and the process tree, SIGTERM ignored or not
        Path pidFile = dir.resolve("pid");
        int port = start(
                "provider = \"agent\"", cliProvider("agent", "FAKE_AGENT_PID_FILE = \"" + pidFile + "\""), Map.of());
        CompletableFuture<GatewayHarness.Reply> running = CompletableFuture.supplyAsync(() -> {
            try {
                return chat(port, "carol", "please sleep", null);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Path childFile = Path.of(pidFile + ".child");
        while (!(Files.exists(pidFile)
                && Files.exists(childFile)
                && !Files.readString(pidFile).isBlank())) {
            assertThat(System.nanoTime()).as("the agent started").isLessThan(until);
            Thread.sleep(20);
        }
        long[] pids = {
            Long.parseLong(Files.readString(pidFile).strip()),
            Long.parseLong(Files.readString(childFile).strip())
        };
        try {
            chat(port, "carol", "/stop", null);
            running.get(30, TimeUnit.SECONDS);
            for (long pid : pids) {
                ProcessHandle.of(pid)
                        .ifPresent(
                                h -> h.onExit().orTimeout(15, TimeUnit.SECONDS).join());
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                        .as("process %d", pid)
                        .isFalse();
            }
        } finally {
            for (long pid : pids) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void anAnthropicOverloadFallsBackToGeminiThenToTheCliEachAttemptLoggedAndCounted() throws Exception {
        // SPEC SP-4: agent.fallback across kinds
        anthropic = FakeAnthropicServer.start().requireApiKey(ANTHROPIC_KEY);
        gemini = FakeGeminiServer.start().requireApiKey(GEMINI_KEY);
        anthropic.enqueue(
                dev.clawgate.testkit.anthropic.Reply.overloaded(), dev.clawgate.testkit.anthropic.Reply.overloaded());
        gemini.enqueue(
                dev.clawgate.testkit.gemini.Reply.unavailable(), dev.clawgate.testkit.gemini.Reply.unavailable());
        String providers = """
                [providers.claude]
                kind = "anthropic"
                base_url = "%s"
                api_key = "${ANTHROPIC_API_KEY}"
                model = "claude-test"

                [providers.gem]
                kind = "gemini"
                api_base = "%s"
                api_key = "${GEMINI_API_KEY}"
                model = "gemini-2.5-flash"

                %s
                """.formatted(anthropic.baseUrl(), gemini.baseUrl(), cliProvider("agent", ""));
        try (CapturedAppLogs logs = new CapturedAppLogs()) {
            int port = start(
                    "provider = \"claude\"\nfallback = [\"gem\", \"agent\"]",
                    providers,
                    Map.of("ANTHROPIC_API_KEY", ANTHROPIC_KEY, "GEMINI_API_KEY", GEMINI_KEY));
            assertThat(chat(port, "erin", "who answers?", null).content()).isEqualTo("You said: who answers?");
            assertThat(anthropic.messageRequests()).hasSize(2);
            assertThat(gemini.generateRequests()).hasSize(2);
            assertThat(gemini.generateRequests().getFirst().header("x-goog-api-key"))
                    .isEqualTo(GEMINI_KEY);

            List<String> lines = logs.atLeast(Level.INFO);
            assertThat(lines)
                    .anyMatch(l -> l.contains("provider claude model claude-test attempt failed: TRANSIENT")
                            && l.contains("overloaded_error"));
            assertThat(lines)
                    .anyMatch(l ->
                            l.contains("provider claude gave up (TRANSIENT); trying the next in the fallback chain"));
            assertThat(lines)
                    .anyMatch(l -> l.contains("provider gem model gemini-2.5-flash attempt failed: TRANSIENT")
                            && l.contains("UNAVAILABLE"));
            assertThat(lines).anyMatch(l -> l.contains("provider gem gave up (TRANSIENT)"));
            assertThat(String.join("\n", lines)).doesNotContain(ANTHROPIC_KEY, GEMINI_KEY);

            HttpResponse<String> scrape = GatewayHarness.get(port, "/metrics", null);
            assertThat(scrape.statusCode()).isEqualTo(200);
            String text = scrape.body();
            assertThat(sample(text, "clawgate_model_attempts_total{outcome=\"transient\",provider=\"claude\"}"))
                    .contains(2.0);
            assertThat(sample(text, "clawgate_model_attempts_total{outcome=\"transient\",provider=\"gem\"}"))
                    .contains(2.0);
            assertThat(sample(text, "clawgate_model_attempts_total{outcome=\"ok\",provider=\"agent\"}"))
                    .contains(1.0);
        }
    }

    private static Optional<Double> sample(String scrape, String series) {
        return scrape.lines()
                .filter(l -> l.startsWith(series + " "))
                .findFirst()
                .map(l -> Double.parseDouble(l.substring(series.length() + 1).strip()));
    }
}
