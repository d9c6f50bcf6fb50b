package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.internal.tool.builtin.sandbox.SandboxFinding;
import dev.clawgate.core.internal.tool.builtin.sandbox.SandboxedRun;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandbox;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxStatus;
import dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxes;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code shell} (SPEC AG-5, AG-8): runs one allowlisted program in the workspace, inside the configured
 * {@link ShellSandbox}, without a shell: the command line is split into words by {@link ShellCommand} and executed
 * directly, so nothing but the checked program starts. The allowlist and {@link ArgumentPaths} are defence in depth;
 * the sandbox is the boundary. Timeout and cancellation (SPEC AG-2) kill everything the command started; output (stdout
 * and stderr, interleaved) is capped with a note, and a command whose output passes the sandbox's output limit is
 * stopped.
 */
final class ShellTool extends BuiltinTool {
    public static final String NAME = "shell";
    private static final Logger LOG = LoggerFactory.getLogger(ShellTool.class);
    /** Options that make an otherwise harmless program run another one, which the allowlist never saw. */
    static final Map<String, Set<String>> PROGRAM_RUNNING_OPTIONS =
            Map.of("find", Set.of("-exec", "-execdir", "-ok", "-okdir"));
    /** Programs whose whole job is to run another program: allowlisting one allowlists everything. */
    static final Set<String> LAUNCHERS = Set.of(
            "sh", "bash", "zsh", "dash", "env", "xargs", "sudo", "su", "nohup", "timeout", "nice", "time", "watch",
            "exec", "eval", "busybox", "python", "python3", "perl", "node");
    /** Room for the exit-code line and the notes, so the whole result fits tools.max_result_chars. */
    static final int NOTE_RESERVE = 200;
    /** How long to wait for output still held open by a killed process's escaped grandchildren. */
    static final long DRAIN_MILLIS = 2_000;

    private final Set<String> allowlist;
    private final int timeoutSecs;
    private final int outputChars;
    private final ShellSandbox sandbox;

    public ShellTool(ToolSettings settings, ShellSandbox sandbox) {
        super(
                NAME,
                "Run one command in the workspace directory. Allowed programs: "
                        + String.join(
                                ", ",
                                settings.shellAllowlist().stream()
                                        .distinct()
                                        .sorted()
                                        .toList())
                        + ". Timeout " + settings.shellTimeoutSecs() + " s. No network. Output (stdout and stderr) and"
                        + " the exit code are returned.",
                ArgumentSchema.object()
                        .string(
                                "command",
                                "One command line: a program and its arguments. Quote arguments with ' or \"."
                                        + " No pipes, redirections, ';', '&&' or $(...)",
                                true));
        if (settings.shellTimeoutSecs() < 1)
            throw new IllegalArgumentException("tools.shell_timeout_secs must be positive");
        if (settings.shellOutputCap() < 1)
            throw new IllegalArgumentException("tools.shell_output_cap must be positive");
        this.allowlist = Set.copyOf(new LinkedHashSet<>(settings.shellAllowlist()));
        this.timeoutSecs = settings.shellTimeoutSecs();
        this.outputChars = Math.max(1, Math.min(settings.shellOutputCap(), settings.maxResultChars() - NOTE_RESERVE));
        this.sandbox = sandbox;
        for (String p : allowlist) {
            if (LAUNCHERS.contains(p))
                LOG.warn("tools.shell_allowlist contains '{}', which can run any other program", p);
        }
    }

    /**
     * In the sandbox {@code tools.shell_sandbox} selects here.
     *
     * @throws IllegalStateException when no sandbox works here (the gateway then offers no shell tool at all)
     */
    public ShellTool(ToolSettings settings) {
        this(settings, sandboxFor(settings));
    }

    private static ShellSandbox sandboxFor(ToolSettings settings) {
        ShellSandboxStatus status = ShellSandboxes.select(settings, List.of());
        return status.sandbox()
                .orElseThrow(() -> new IllegalStateException("no shell sandbox: "
                        + String.join(
                                "; ",
                                status.findings().stream()
                                        .map(SandboxFinding::what)
                                        .toList())));
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) throws InterruptedException {
        ShellCommand command;
        try {
            command = ShellCommand.parse(ToolArguments.of(arguments).requiredString("command"));
            checkAllowed(command);
        } catch (RefusedException e) {
            return ToolResult.error(e.getMessage());
        }
        context.cancel().throwIfCancelled();
        Path ws = context.workspace().toAbsolutePath().normalize();
        if (!Files.isDirectory(ws)) return ToolResult.error("the workspace directory does not exist");
        try {
            ArgumentPaths.check(command.argv(), ws);
        } catch (RefusedException e) {
            return ToolResult.error(e.getMessage());
        }
        return run(command, ws, context.cancel());
    }

    void checkAllowed(ShellCommand command) throws RefusedException {
        if (!allowlist.contains(command.program())) {
            throw new RefusedException("command '" + command.program() + "' is not allowed; allowed: "
                    + String.join(", ", allowlist.stream().sorted().toList()));
        }
        Set<String> forbidden = PROGRAM_RUNNING_OPTIONS.getOrDefault(command.program(), Set.of());
        for (String arg : command.argv()) {
            if (forbidden.contains(arg)) {
                throw new RefusedException(
                        "option " + arg + " of " + command.program() + " runs other programs and is not allowed");
            }
        }
    }

    private ToolResult run(ShellCommand command, Path ws, CancelToken cancel) throws InterruptedException {
        SandboxedRun started;
        try {
            started = sandbox.start(command.argv(), ws);
        } catch (IOException e) {
            return ToolResult.error("cannot start " + command.program() + ": " + e.getMessage());
        }
        try (SandboxedRun run = started) {
            Process process = run.process();
            // UTF-8 needs at most 4 bytes a character: enough bytes for the character cap, and a count of the rest
            OutputCapture output = OutputCapture.start(
                    process.getInputStream(),
                    (int) Math.min(Integer.MAX_VALUE - 8, outputChars * 4L + 4),
                    sandbox.limits().outputBytes(),
                    run::kill);
            boolean timedOut;
            AutoCloseable killOnCancel = cancel.onCancel(run::kill);
            try {
                timedOut = !process.waitFor(timeoutSecs, TimeUnit.SECONDS);
                if (timedOut) run.kill();
            } finally {
                release(killOnCancel);
            }
            boolean drained = output.awaitEnd(DRAIN_MILLIS);
            cancel.throwIfCancelled();
            return render(command, process, output, timedOut, drained);
        }
    }

    private ToolResult render(
            ShellCommand command, Process process, OutputCapture output, boolean timedOut, boolean drained) {
        String text = new String(output.bytes(), StandardCharsets.UTF_8);
        boolean cut = output.totalBytes() > output.bytes().length || text.length() > outputChars;
        if (text.length() > outputChars) {
            int keep = outputChars;
            if (Character.isHighSurrogate(text.charAt(keep - 1))) keep--;
            text = text.substring(0, keep);
        }
        StringBuilder r = new StringBuilder();
        if (timedOut) {
            r.append("[timed out after ")
                    .append(timeoutSecs)
                    .append(" s: ")
                    .append(command.program())
                    .append(" and its child processes were killed]\n");
        } else if (output.overflowed()) {
            r.append("[output passed ")
                    .append(sandbox.limits().outputBytes())
                    .append(" bytes: ")
                    .append(command.program())
                    .append(" was stopped]\n");
        } else {
            r.append("exit code: ").append(process.exitValue()).append('\n');
        }
        r.append(text);
        if (!text.isEmpty() && !text.endsWith("\n")) r.append('\n');
        if (cut) {
            r.append("[... output cut at ")
                    .append(outputChars)
                    .append(" characters; ")
                    .append(output.totalBytes())
                    .append(" bytes in all]\n");
        }
        if (!drained) r.append("[output still held open by a background process; it was not waited for]\n");
        // a killed process's stream is closed under the reader: that is no failure worth a note
        if (output.failure() != null && !timedOut && !output.overflowed()) {
            r.append("[output could not be read to the end: ")
                    .append(output.failure().getMessage())
                    .append("]\n");
        }
        String result = r.toString().stripTrailing();
        return timedOut || output.overflowed() ? ToolResult.error(result) : ToolResult.ok(result);
    }

    private static void release(AutoCloseable listener) {
        try {
            listener.close();
        } catch (Exception e) {
            throw new IllegalStateException("cancel listener could not be removed", e);
        }
    }
}
