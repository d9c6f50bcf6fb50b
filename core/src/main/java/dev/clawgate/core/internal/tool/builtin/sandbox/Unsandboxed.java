package dev.clawgate.core.internal.tool.builtin.sandbox;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code tools.shell_sandbox = "none"} (SPEC AG-8): the command runs as a plain child process of the gateway, with the
 * gateway's user and view of the system. Only the shell tool's argument checks and a filtered environment stand between
 * it and the rest of the machine; the gateway logs a warning at start.
 */
public record Unsandboxed(SandboxLimits limits) implements ShellSandbox {
    /** Only these variables reach the child: the gateway's environment holds provider keys. */
    public static final Set<String> PASSED_ENVIRONMENT = Set.of("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ");

    @Override
    public SandboxedRun start(List<String> argv, Path workspace) throws IOException {
        ProcessBuilder pb =
                new ProcessBuilder(argv).directory(workspace.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().retainAll(PASSED_ENVIRONMENT);
        env.put("HOME", workspace.toString());
        env.put("PWD", workspace.toString());
        Process process = pb.start();
        process.getOutputStream().close();
        return new SandboxedRun(process, null);
    }

    @Override
    public String name() {
        return "none";
    }
}
