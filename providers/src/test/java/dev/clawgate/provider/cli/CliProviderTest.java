package dev.clawgate.provider.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.config.CliProviderSettings;
import dev.clawgate.core.config.CliProviderSettings.PromptMode;
import dev.clawgate.core.config.CliProviderSettings.PromptVia;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.internal.toolcall.ParsedReply;
import dev.clawgate.core.internal.toolcall.ToolCallParser;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.ProviderFactory;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.provider.testing.RecordingObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI provider running a real agent-like program (test resources: cli/fake-agent.sh) (SPEC SP-4, HI-5, AG-2). */
class CliProviderTest {
    @TempDir
    Path dir;

    private final List<CliProvider> opened = new CopyOnWriteArrayList<>();
    private final List<Long> pidsToReap = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        opened.forEach(CliProvider::close);
        // never leave a stray process behind, even when a test fails
        for (long pid : pidsToReap) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    static Path script() throws Exception {
        return dev.clawgate.testkit.cli.FakeAgentCli.script();
    }

    private CliProvider provider(
            Map<String, String> env,
            Duration timeout,
            PromptVia via,
            PromptMode mode,
            List<String> patterns,
            int maxProcesses)
            throws Exception {
        List<String> args = new ArrayList<>(List.of(script().toString()));
        if (via == PromptVia.FILE) args.addAll(List.of("--prompt-file", "{prompt_file}"));
        CliProviderSettings cli =
                new CliProviderSettings("bash", args, env, dir, timeout, via, mode, patterns, maxProcesses);
        CliProvider p = new CliProvider(
                new ProviderSettings("agent", "cli", null, null, null, "fake-model", 120, null, null, null, cli),
                Duration.ofMillis(500));
        opened.add(p);
        return p;
    }

    private CliProvider provider(Map<String, String> env) throws Exception {
        return provider(env, Duration.ofSeconds(60), PromptVia.STDIN, PromptMode.MINIMAL, null, 4);
    }

    private static ChatRequest ask(String text, boolean stream) {
        return new ChatRequest(
                "fake-model",
                List.of(
                        ChatMessage.system("## Tools\nNo tools are available in this conversation."),
                        ChatMessage.user(text)),
                List.of(),
                stream,
                null);
    }

    @Test
    void theFactoryIsFoundByKind() {
        // SPEC SP-4: kind = "cli"
        assertThat(ServiceLoader.load(ProviderFactory.class).stream()
                        .map(p -> p.get().kind()))
                .contains("cli");
    }

    @Test
    void theProgramsStdoutIsTheReplyStreamedAsItArrives() throws Exception {
        // SPEC SP-4
        RecordingObserver seen = new RecordingObserver();
        ChatResponse r = provider(Map.of()).chat(ask("hello there", true), seen, CancelToken.none());
        assertThat(r.text()).isEqualTo("You said: hello there");
        assertThat(r.finishReason()).isEqualTo("stop");
        assertThat(String.join("", seen.text)).isEqualTo("You said: hello there");
    }

    @Test
    void thePromptCanGoThroughAFileThatIsDeletedAfterwardsAndTheProcessGetsOnlyItsEnvironment() throws Exception {
        // SPEC SP-4: prompt_via = "file"; env: only PATH, HOME and what is configured
        Path pathOut = dir.resolve("path.txt");
        Path envOut = dir.resolve("env.txt");
        CliProvider p = provider(
                Map.of(
                        "FAKE_AGENT_PATH_OUT",
                        pathOut.toString(),
                        "FAKE_AGENT_ENV_OUT",
                        envOut.toString(),
                        "AGENT_TOKEN",
                        "configured"),
                Duration.ofSeconds(60),
                PromptVia.FILE,
                PromptMode.MINIMAL,
                null,
                4);
        ChatResponse r = p.chat(ask("from a file", false), StreamObserver.NONE, CancelToken.none());
        assertThat(r.text()).isEqualTo("You said: from a file");
        Path promptFile = Path.of(Files.readString(pathOut));
        assertThat(promptFile.getFileName().toString()).startsWith("clawgate-prompt-");
        assertThat(promptFile).doesNotExist();
        List<String> names = Files.readAllLines(envOut).stream()
                .map(l -> l.substring(0, Math.max(0, l.indexOf('='))))
                .toList();
        assertThat(names).contains("AGENT_TOKEN", "PATH").doesNotContain("JAVA_HOME", "MAVEN_OPTS");
    }

    @Test
    void aToolCallInTheGatewaysDialectComesBackAndItsResultIsUsed() throws Exception {
        // SPEC SP-3, AG-1: the program answers with <tool_call> tags the agent loop parses
        CliProvider p = provider(Map.of());
        ChatResponse first = p.chat(ask("please use a tool", false), StreamObserver.NONE, CancelToken.none());
        ParsedReply parsed = ToolCallParser.parse(first.text());
        assertThat(parsed.calls()).hasSize(1);
        ToolCall call = parsed.calls().getFirst();
        assertThat(call.name()).isEqualTo("echo_tool");
        assertThat(call.arguments().path("text").asText()).isEqualTo("ping");
        ChatResponse second = p.chat(
                new ChatRequest(
                        "fake-model",
                        List.of(
                                ChatMessage.user("please use a tool"),
                                ChatMessage.assistant(first.text()),
                                ChatMessage.user("[Tool results]\n<tool_result name=\"echo_tool\">pong</tool_result>")),
                        List.of(),
                        false,
                        null),
                StreamObserver.NONE,
                CancelToken.none());
        assertThat(second.text()).startsWith("The tool said: pong");
    }

    @Test
    void theJsonLineProtocolIsReadWhenTheProgramSpeaksIt() throws Exception {
        RecordingObserver seen = new RecordingObserver();
        ChatResponse r = provider(Map.of()).chat(ask("json please", true), seen, CancelToken.none());
        assertThat(r.text()).isEqualTo("Hello world");
        assertThat(seen.text).containsExactly("Hello", " world");
    }

    @Test
    void theProgramsOverflowNoticeIsAContextOverflowAndNeverReachesTheChat() throws Exception {
        // SPEC HI-5: the seed's "The context window has overflowed, summarizing..." now triggers compaction
        RecordingObserver seen = new RecordingObserver();
        CliProvider p = provider(Map.of("FAKE_AGENT_MAX_PROMPT", "300"));
        assertThatThrownBy(() -> p.chat(ask("x".repeat(400), true), seen, CancelToken.none()))
                .isInstanceOfSatisfying(
                        ProviderException.class,
                        e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.CONTEXT_OVERFLOW));
        assertThat(seen.text).isEmpty();
        // the same program with a short prompt answers
        assertThat(p.chat(ask("short", false), StreamObserver.NONE, CancelToken.none())
                        .text())
                .isEqualTo("You said: short");
    }

    @Test
    void configuredOverflowPatternsFeedTheSharedDetector() throws Exception {
        // SPEC HI-5: overflow_patterns
        CliProvider defaults = provider(Map.of());
        assertThatThrownBy(() -> defaults.chat(ask("custom overflow", false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(
                        ProviderException.class, e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.TRANSIENT));
        CliProvider configured = provider(
                Map.of(),
                Duration.ofSeconds(60),
                PromptVia.STDIN,
                PromptMode.MINIMAL,
                List.of("Context budget exhausted"),
                4);
        assertThatThrownBy(
                        () -> configured.chat(ask("custom overflow", false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(
                        ProviderException.class,
                        e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.CONTEXT_OVERFLOW));
    }

    @Test
    void stderrIsNeverPutInTheError() throws Exception {
        // SPEC HI-6: stderr is logged, never shown raw
        assertThatThrownBy(() ->
                        provider(Map.of()).chat(ask("fail please", false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.TRANSIENT);
                    assertThat(e.getMessage())
                            .contains("status 3")
                            .doesNotContain("hunter2secret")
                            .doesNotContain("upstream");
                });
    }

    @Test
    void aCommandThatCannotStartIsAClearFatalError() throws Exception {
        CliProviderSettings cli =
                CliProviderSettings.of(dir.resolve("no-such-agent").toString(), List.of());
        CliProvider p = new CliProvider(
                new ProviderSettings("agent", "cli", null, null, null, "m", 120, null, null, null, cli));
        opened.add(p);
        assertThatThrownBy(() -> p.chat(ask("hi", false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.FATAL);
                    assertThat(e.getMessage()).contains("cannot start");
                });
    }

    @Test
    void stopKillsTheWholeTreeEvenWhenItIgnoresSigterm() throws Exception {
        // SPEC AG-2, DI-5: /stop cancels the run's token
        Path pidFile = dir.resolve("pid");
        CliProvider p = provider(Map.of("FAKE_AGENT_PID_FILE", pidFile.toString()));
        CancelToken token = new CancelToken();
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                p.chat(ask("please sleep", true), StreamObserver.NONE, token);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        long[] pids = awaitPids(pidFile);
        assertThat(ProcessHandle.of(pids[0]).map(ProcessHandle::isAlive)).contains(true);
        token.cancel("/stop");
        assertThat(outcome.get(30, TimeUnit.SECONDS)).isInstanceOf(CancelledException.class);
        assertGone(pids);
    }

    @Test
    void aTimeoutKillsTheTreeAndIsTransient() throws Exception {
        // SPEC SP-4: timeout
        Path pidFile = dir.resolve("pid");
        CliProvider p = provider(
                Map.of("FAKE_AGENT_PID_FILE", pidFile.toString()),
                Duration.ofSeconds(2),
                PromptVia.STDIN,
                PromptMode.MINIMAL,
                null,
                4);
        assertThatThrownBy(() -> p.chat(ask("please sleep", false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.TRANSIENT);
                    assertThat(e.getMessage()).contains("no answer within 2s");
                });
        assertGone(readPids(pidFile));
    }

    @Test
    void closingTheProviderAtShutdownKillsWhatItRuns() throws Exception {
        // SPEC SP-4: killed at shutdown
        Path pidFile = dir.resolve("pid");
        CliProvider p = provider(Map.of("FAKE_AGENT_PID_FILE", pidFile.toString()));
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                p.chat(ask("please sleep", false), StreamObserver.NONE, CancelToken.none());
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        long[] pids = awaitPids(pidFile);
        p.close();
        assertGone(pids);
        assertThat(outcome.get(30, TimeUnit.SECONDS)).isInstanceOf(ProviderException.class);
        assertThatThrownBy(() -> p.chat(ask("hi", false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOf(ProviderException.class)
                .hasMessageContaining("shut down");
    }

    @Test
    void maxProcessesBoundsConcurrentRuns() throws Exception {
        // SPEC SP-4: max_processes
        Path pidFile = dir.resolve("pid");
        CliProvider p = provider(
                Map.of("FAKE_AGENT_PID_FILE", pidFile.toString()),
                Duration.ofSeconds(60),
                PromptVia.STDIN,
                PromptMode.MINIMAL,
                null,
                1);
        CancelToken first = new CancelToken();
        CompletableFuture<Throwable> sleeper = CompletableFuture.supplyAsync(() -> {
            try {
                p.chat(ask("please sleep", false), StreamObserver.NONE, first);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        awaitPids(pidFile);
        CompletableFuture<ChatResponse> second = CompletableFuture.supplyAsync(() -> {
            try {
                return p.chat(ask("my turn", false), StreamObserver.NONE, CancelToken.none());
            } catch (ProviderException e) {
                throw new IllegalStateException(e);
            }
        });
        // the second run waits for the only slot (unbounded, it would answer in milliseconds)
        assertThat(second.completeOnTimeout(null, 1, TimeUnit.SECONDS).get()).isNull();
        assertThat(ProcessHandle.current()
                        .children()
                        .filter(h -> h.info().command().orElse("").endsWith("bash"))
                        .count())
                .isEqualTo(1);
        first.cancel("/stop");
        assertThat(sleeper.get(30, TimeUnit.SECONDS)).isInstanceOf(CancelledException.class);
        CompletableFuture<ChatResponse> again = CompletableFuture.supplyAsync(() -> {
            try {
                return p.chat(ask("my turn", false), StreamObserver.NONE, CancelToken.none());
            } catch (ProviderException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(again.get(30, TimeUnit.SECONDS).text()).isEqualTo("You said: my turn");
    }

    private long[] awaitPids(Path pidFile) throws Exception {
        Path child = Path.of(pidFile + ".child");
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(pidFile)
                && Files.exists(child)
                && !Files.readString(pidFile).isBlank())) {
            if (System.nanoTime() > until) throw new AssertionError("the agent never wrote its pid files");
            Thread.sleep(20);
        }
        return readPids(pidFile);
    }

    private long[] readPids(Path pidFile) throws Exception {
        long[] pids = {
            Long.parseLong(Files.readString(pidFile).strip()),
            Long.parseLong(Files.readString(Path.of(pidFile + ".child")).strip())
        };
        for (long pid : pids) pidsToReap.add(pid);
        return pids;
    }

    private static void assertGone(long[] pids) throws Exception {
        for (long pid : pids) {
            ProcessHandle.of(pid)
                    .ifPresent(h -> h.onExit().orTimeout(10, TimeUnit.SECONDS).join());
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .as("process %d", pid)
                    .isFalse();
        }
    }
}
