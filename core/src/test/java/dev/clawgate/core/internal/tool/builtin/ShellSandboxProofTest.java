package dev.clawgate.core.internal.tool.builtin;

import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.args;
import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.context;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.tool.ToolResult;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sandbox is the boundary, not the argument checks (SPEC AG-8): with {@code bash} allowlisted, the model can run
 * any code it likes in the workspace, and still cannot write outside, read {@code /etc/shadow}, reach the network, see
 * the host's processes or {@code /proc}, or take the gateway down with a fork bomb.
 */
class ShellSandboxProofTest {
    @TempDir
    Path root;

    private Path workspace() throws Exception {
        return Files.createDirectories(root.resolve("workspace"));
    }

    private static ShellTool bash(int timeoutSecs) {
        return new ShellTool(new ToolSettings(8_000, List.of("bash", "echo"), timeoutSecs, 16_000));
    }

    private ToolResult bash(String script) throws Exception {
        return bash(10).execute(args("command", "bash -c '" + script + "'"), context(workspace()));
    }

    // SPEC AG-8
    @Test
    void codeInTheSandboxCannotWriteOutsideTheWorkspace() throws Exception {
        Path outside = Files.createDirectories(root.resolve("outside"));
        ToolResult r = bash("echo pwned > " + outside + "/a; echo pwned > /tmp/b; echo pwned > /usr/c; cp /etc/passwd "
                + outside
                + "/d; mkdir -p " + outside + "/e; echo pwned > inside; ls -d " + outside);
        assertThat(r.output())
                .contains("exit code")
                .contains("No such file or directory")
                .contains("Read-only file system");
        try (var files = Files.list(outside)) {
            assertThat(files).isEmpty();
        }
        assertThat(Path.of("/tmp/b")).doesNotExist();
        assertThat(Path.of("/usr/c")).doesNotExist();
        assertThat(root.resolve("workspace/inside")).hasContent("pwned");
    }

    // SPEC AG-8
    @Test
    void codeInTheSandboxSeesNoSecretsOfTheSystemNorTheGatewaysEnvironment() throws Exception {
        ToolResult r = bash("cat /etc/shadow; ls /root /home /proc /sys /var; ls /etc; env");
        assertThat(r.output())
                .contains("cat: /etc/shadow: No such file or directory")
                .doesNotContain("root:")
                .contains("ls: cannot access '/proc'")
                .contains("ls: cannot access '/sys'");
        List<String> variables = r.output()
                .lines()
                .filter(l -> l.matches("[A-Z_]+=.*"))
                .map(l -> l.substring(0, l.indexOf('=')))
                .toList();
        assertThat(variables)
                .contains("PATH", "HOME")
                .allMatch(v ->
                        List.of("PATH", "HOME", "LANG", "PWD", "SHLVL", "_").contains(v));
        assertThat(r.output()).doesNotContain("shadow\n").doesNotContain("clawgate.toml");
    }

    // SPEC AG-8
    @Test
    void codeInTheSandboxCannotOpenANetworkConnection() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            listener.setSoTimeout(1);
            ToolResult r = bash("echo hello > /dev/tcp/127.0.0.1/" + listener.getLocalPort()
                    + "; echo hello > /dev/tcp/1.1.1.1/80;"
                    + " echo hello > /dev/tcp/" + InetAddress.getLocalHost().getHostAddress() + "/"
                    + listener.getLocalPort());
            assertThat(r.output()).contains("Connection refused").contains("Network is unreachable");
            AtomicInteger accepted = new AtomicInteger();
            try {
                listener.accept().close();
                accepted.incrementAndGet();
            } catch (SocketTimeoutException none) {
                assertThat(accepted).hasValue(0);
            }
            assertThat(accepted).hasValue(0);
        }
    }

    // SPEC AG-8
    @Test
    void codeInTheSandboxCannotSeeSignalMountOrBecomeMorePrivileged() throws Exception {
        long gateway = ProcessHandle.current().pid();
        ToolResult r = bash("kill -0 " + gateway + " && echo SEEN-GATEWAY; mount -t tmpfs none /tmp; mknod dev b 8 0;"
                + " unshare -U true && echo NESTED-USERNS; echo $$");
        assertThat(r.output())
                .doesNotContain("SEEN-GATEWAY")
                .doesNotContain("NESTED-USERNS")
                .contains("mount: /tmp: permission denied")
                .contains("mknod: dev: Operation not permitted");
        assertThat(root.resolve("workspace/dev")).doesNotExist();
    }

    // SPEC AG-8
    @Test
    void aForkBombIsContainedAndTheNextCommandStillRuns() throws Exception {
        Path ws = workspace();
        // the first bash stays, so the bomb runs until the limit stops it or the timeout kills the namespace
        ToolResult bomb = bash(5).execute(args("command", "bash -c 'b() { b | b & }; b; sleep 2; wait'"), context(ws));
        assertThat(bomb.output()).contains("fork: retry: Resource temporarily unavailable");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive));
        assertThat(bash(5).execute(args("command", "echo still here"), context(ws))
                        .output())
                .isEqualTo("exit code: 0\nstill here");
    }

    // SPEC AG-8
    @Test
    void memoryFileSizeAndOutputAreLimited() throws Exception {
        ToolResult big = bash("head -c 100000000 /dev/zero > big; ls -l big;"
                + " head -c 100000000 /dev/zero > /tmp/big; ls -l /tmp/big");
        assertThat(big.output()).contains("File size limit exceeded");
        assertThat(Files.size(root.resolve("workspace/big"))).isLessThanOrEqualTo(64L * 1024 * 1024);
        ToolResult flood = bash("while :; do echo " + "a".repeat(80) + "; done");
        assertThat(flood.error()).isTrue();
        assertThat(flood.output()).startsWith("[output passed 8388608 bytes: bash was stopped]");
        ToolResult hog = bash("a=x; while :; do a=$a$a; done");
        assertThat(hog.output()).doesNotStartWith("exit code: 0");
    }
}
