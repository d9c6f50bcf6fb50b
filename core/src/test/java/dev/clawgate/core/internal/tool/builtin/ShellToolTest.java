package dev.clawgate.core.internal.tool.builtin;

import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.args;
import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.context;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.internal.tool.builtin.sandbox.Unsandboxed;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShellToolTest {
    static final List<String> ALLOW =
            List.of("echo", "ls", "pwd", "touch", "seq", "sleep", "printenv", "find", "false");

    @TempDir
    Path ws;

    @BeforeEach
    void files() throws Exception {
        Files.writeString(ws.resolve("hello.txt"), "hi");
    }

    private static ShellTool shell(int timeoutSecs, int outputCap) {
        return new ShellTool(new ToolSettings(8_000, ALLOW, timeoutSecs, outputCap));
    }

    private ToolResult run(String command) throws Exception {
        return shell(10, 16_000).execute(args("command", command), context(ws));
    }

    // SPEC AG-5
    @Test
    void allowlistedCommandRunsInTheWorkspaceAndReportsItsExitCode() throws Exception {
        ToolResult ls = run("ls");
        assertThat(ls).isEqualTo(ToolResult.ok("exit code: 0\nhello.txt"));
        assertThat(run("pwd").output()).isEqualTo("exit code: 0\n" + ws.toRealPath());
        assertThat(run("false").output()).isEqualTo("exit code: 1");
        assertThat(run("ls missing-file").output()).startsWith("exit code: 2\n").contains("missing-file");
    }

    // SPEC AG-5: the shell is confined to the workspace like the file tools
    @Test
    void argumentsThatNameFilesOutsideTheWorkspaceAreRefused() throws Exception {
        Path outside = Files.createTempDirectory("outside");
        Files.writeString(outside.resolve("secret.txt"), "top secret");
        Files.createSymbolicLink(ws.resolve("escape"), outside);
        for (String attack : List.of(
                "ls /",
                "ls " + outside,
                "ls ~",
                "ls ../",
                "ls sub/../../x",
                "ls escape",
                "find . -newer=/etc/passwd",
                "ls --color=/etc")) {
            ToolResult r = run(attack);
            assertThat(r.error()).as(attack).isTrue();
        }
        assertThat(run("ls escape").output()).doesNotContain("secret.txt");
        assertThat(run("ls hello.txt").output()).isEqualTo("exit code: 0\nhello.txt");
        assertThat(run("echo a/b -n").error()).isFalse();
    }

    // SPEC AG-5
    @Test
    void quotedArgumentsReachTheProgramVerbatim() throws Exception {
        assertThat(run("echo 'a;b $(id) `id` | > <' \"日本語 😀\"").output())
                .isEqualTo("exit code: 0\na;b $(id) `id` | > < 日本語 😀");
        assertThat(run("touch 'semi;colon $(x).txt'").error()).isFalse();
        assertThat(ws.resolve("semi;colon $(x).txt")).exists();
    }

    // SPEC AG-5
    @Test
    void commandNotOnTheAllowlistIsRefusedAndNotRun() throws Exception {
        ToolResult r = shell(10, 1000).execute(args("command", "rm hello.txt"), context(ws));
        assertThat(r.error()).isTrue();
        assertThat(r.output()).contains("'rm' is not allowed").contains("echo");
        assertThat(run("/bin/rm hello.txt").error()).isTrue();
        assertThat(run("HOME=/ ls").error()).isTrue();
        assertThat(ws.resolve("hello.txt")).exists();
    }

    // SPEC AG-5
    @Test
    void metacharacterInjectionIsRefusedAndNothingRuns() throws Exception {
        for (String attack : List.of(
                "ls; rm -rf /",
                "ls $(id)",
                "ls; touch pwned",
                "echo x && touch pwned",
                "echo x | touch pwned",
                "echo $(touch pwned)",
                "echo `touch pwned`",
                "echo x > pwned",
                "echo x\ntouch pwned",
                "touch pwned &")) {
            ToolResult r = run(attack);
            assertThat(r.error()).as(attack).isTrue();
            assertThat(r.output()).as(attack).doesNotStartWith("exit code");
        }
        assertThat(ws.resolve("pwned")).doesNotExist();
        assertThat(ws.resolve("x")).doesNotExist();
    }

    // SPEC AG-5
    @Test
    void findCannotBeUsedToRunAnotherProgram() throws Exception {
        ToolResult r = run("find . -name hello.txt -exec rm {} ';'");
        assertThat(r.error()).isTrue();
        assertThat(r.output()).contains("-exec");
        assertThat(ws.resolve("hello.txt")).exists();
        assertThat(run("find . -name hello.txt").output()).isEqualTo("exit code: 0\n./hello.txt");
    }

    // SPEC AG-5
    @Test
    void theChildSeesNoneOfTheGatewaysEnvironmentBeyondTheBasics() throws Exception {
        ToolResult r = run("printenv");
        assertThat(r.error()).isFalse();
        List<String> names = r.output()
                .lines()
                .skip(1)
                .map(l -> l.substring(0, l.indexOf('=')))
                .toList();
        assertThat(names)
                .contains("HOME")
                .allMatch(n -> Unsandboxed.PASSED_ENVIRONMENT.contains(n) || n.equals("HOME") || n.equals("PWD"));
        assertThat(r.output()).contains("HOME=" + ws.toAbsolutePath());
    }

    // SPEC AG-5
    @Test
    void timeoutKillsTheWholeProcessTreeAndSaysSo() throws Exception {
        // sh is allowlisted here only to build a process tree; it is a launcher, which ShellTool warns about
        ShellTool tool = new ShellTool(new ToolSettings(8_000, List.of("sh"), 1, 1000));
        long start = System.nanoTime();
        CompletableFuture<ToolResult> result =
                async(() -> tool.execute(args("command", "sh -c 'sleep 300 & sleep 301'"), context(ws)));
        List<ProcessHandle> sleepers = awaitSleepers(2);
        ToolResult r = result.get(30, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
        assertThat(r.error()).isTrue();
        assertThat(r.output()).contains("timed out after 1 s").contains("killed");
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(sleepers).noneMatch(ShellToolTest::running));
    }

    // SPEC AG-5, AG-3
    @Test
    void outputIsCappedWithANoteAndTheRestIsDrained() throws Exception {
        ToolResult r = shell(10, 500).execute(args("command", "seq 1 100000"), context(ws));
        assertThat(r.error()).isFalse();
        assertThat(r.output()).startsWith("exit code: 0\n1\n2\n3\n");
        assertThat(r.output()).contains("[... output cut at 500 characters; 588895 bytes in all]");
        assertThat(r.output().length()).isLessThan(500 + 100);
    }

    // SPEC AG-3
    @Test
    void outputNeverExceedsTheToolResultBudgetEvenWhenTheShellCapIsLarger() throws Exception {
        ShellTool tool = new ShellTool(new ToolSettings(1_000, ALLOW, 10, 16_000));
        ToolResult r = tool.execute(args("command", "seq 1 100000"), context(ws));
        assertThat(r.output().length()).isLessThanOrEqualTo(1_000);
        assertThat(r.output()).contains("output cut at");
    }

    // SPEC AG-2
    @Test
    void cancellingTheRunKillsTheRunningProcess() throws Exception {
        CancelToken cancel = new CancelToken();
        ShellTool tool = shell(120, 1000);
        CompletableFuture<ToolResult> result =
                async(() -> tool.execute(args("command", "sleep 299"), context(ws, cancel)));
        List<ProcessHandle> sleepers = awaitSleepers(1);
        long start = System.nanoTime();
        cancel.cancel("user sent /stop");
        assertThat(result)
                .failsWithin(Duration.ofSeconds(10))
                .withThrowableOfType(ExecutionException.class)
                .havingCause()
                .isInstanceOf(CancelledException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(sleepers).noneMatch(ShellToolTest::running);
    }

    // SPEC AG-2
    @Test
    void anAlreadyCancelledRunStartsNoProcess() {
        CancelToken cancel = new CancelToken();
        cancel.cancel("stop");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> shell(10, 100).execute(args("command", "touch started"), context(ws, cancel)))
                .isInstanceOf(CancelledException.class);
        assertThat(ws.resolve("started")).doesNotExist();
    }

    // SPEC AG-5
    @Test
    void missingOrMistypedCommandIsAClearError() throws Exception {
        assertThat(shell(10, 100).execute(args(), context(ws)).output())
                .contains("missing required argument 'command'");
        assertThat(shell(10, 100).execute(args("command", 5), context(ws)).output())
                .contains("must be a string");
    }

    /** Runs a tool call on a virtual thread; its exception, checked or not, completes the future. */
    private static CompletableFuture<ToolResult> async(Callable<ToolResult> call) {
        CompletableFuture<ToolResult> f = new CompletableFuture<>();
        Thread.startVirtualThread(() -> {
            try {
                f.complete(call.call());
            } catch (Exception e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    /** Waits until this JVM has at least {@code n} descendant sleep processes and returns them. */
    private static List<ProcessHandle> awaitSleepers(int n) {
        return await().atMost(Duration.ofSeconds(10)).until(ShellToolTest::sleepers, l -> l.size() >= n);
    }

    private static List<ProcessHandle> sleepers() {
        try (Stream<ProcessHandle> all = ProcessHandle.current().descendants()) {
            return all.filter(p ->
                            p.info().command().map(c -> c.endsWith("/sleep")).orElse(false))
                    .toList();
        }
    }

    private static boolean running(ProcessHandle p) {
        return ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive).orElse(false);
    }
}
