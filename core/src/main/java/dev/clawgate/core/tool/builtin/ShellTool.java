package dev.clawgate.core.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code shell} (SPEC AG-5): runs one allowlisted program in the workspace, without a shell:
 * the command line is split into words by {@link ShellCommand} and executed directly, so
 * nothing but the checked program can run. Timeout and cancellation (SPEC AG-2) kill the whole
 * process tree; output (stdout and stderr, interleaved) is capped with a note.
 */
public final class ShellTool extends BuiltinTool {
    public static final String NAME = "shell";
    private static final Logger LOG = LoggerFactory.getLogger(ShellTool.class);
    /** Only these variables reach the child: the gateway's environment holds provider keys. */
    static final Set<String> PASSED_ENVIRONMENT = Set.of("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ");
    /** Options that make an otherwise harmless program run another one, which the allowlist never saw. */
    static final Map<String, Set<String>> PROGRAM_RUNNING_OPTIONS = Map.of(
            "find", Set.of("-exec", "-execdir", "-ok", "-okdir"));
    /** Programs whose whole job is to run another program: allowlisting one allowlists everything. */
    static final Set<String> LAUNCHERS = Set.of("sh", "bash", "zsh", "dash", "env", "xargs", "sudo", "su", "nohup",
            "timeout", "nice", "time", "watch", "exec", "eval", "busybox", "python", "python3", "perl", "node");
    /** Room for the exit-code line and the notes, so the whole result fits tools.max_result_chars. */
    static final int NOTE_RESERVE = 200;
    /** How long to wait for output still held open by a killed process's escaped grandchildren. */
    static final long DRAIN_MILLIS = 2_000;

    private final Set<String> allowlist;
    private final int timeoutSecs;
    private final int outputChars;

    public ShellTool(ToolSettings settings) {
        super(NAME, "Run one command in the workspace directory. Allowed programs: "
                        + String.join(", ", settings.shellAllowlist().stream().distinct().sorted().toList())
                        + ". Timeout " + settings.shellTimeoutSecs() + " s. Output (stdout and stderr) and the exit code are returned.",
                ArgumentSchema.object()
                        .string("command", "One command line: a program and its arguments. Quote arguments with ' or \"."
                                + " No pipes, redirections, ';', '&&' or $(...)", true));
        if (settings.shellTimeoutSecs() < 1) throw new IllegalArgumentException("tools.shell_timeout_secs must be positive");
        if (settings.shellOutputCap() < 1) throw new IllegalArgumentException("tools.shell_output_cap must be positive");
        this.allowlist = Set.copyOf(new LinkedHashSet<>(settings.shellAllowlist()));
        this.timeoutSecs = settings.shellTimeoutSecs();
        this.outputChars = Math.max(1, Math.min(settings.shellOutputCap(), settings.maxResultChars() - NOTE_RESERVE));
        for (String p : allowlist) {
            if (LAUNCHERS.contains(p)) LOG.warn("tools.shell_allowlist contains '{}', which can run any other program", p);
        }
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
            checkConfined(command, ws);
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
                throw new RefusedException("option " + arg + " of " + command.program() + " runs other programs and is not allowed");
            }
        }
    }

    /**
     * Arguments may name files only inside the workspace (SPEC AG-5): no absolute or home paths,
     * no {@code ..}, and an existing file is checked by {@link WorkspacePaths} (symlinks included).
     * The value of {@code --opt=value} counts as an argument too.
     */
    static void checkConfined(ShellCommand command, Path ws) throws RefusedException {
        List<String> argv = command.argv();
        for (String arg : argv.subList(1, argv.size())) {
            String value = arg.startsWith("-") ? (arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : null) : arg;
            if (value == null || value.isEmpty()) continue;
            if (value.startsWith("/") || value.startsWith("~") || hasParentSegment(value)) {
                throw new RefusedException("argument '" + arg + "' points outside the workspace; use paths relative to it");
            }
            boolean exists;
            try {
                exists = Files.exists(ws.resolve(value), java.nio.file.LinkOption.NOFOLLOW_LINKS);
            } catch (java.nio.file.InvalidPathException e) {
                throw new RefusedException("argument '" + arg + "' is not a valid path");
            }
            if (exists) WorkspacePaths.resolve(ws, value);
        }
    }

    private static boolean hasParentSegment(String value) {
        for (String part : value.split("[/\\\\]")) {
            if (part.equals("..")) return true;
        }
        return false;
    }

    private ToolResult run(ShellCommand command, Path ws, CancelToken cancel) throws InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command.argv()).directory(ws.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().retainAll(PASSED_ENVIRONMENT);
        env.put("HOME", ws.toString());
        env.put("PWD", ws.toString());
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            return ToolResult.error("cannot start " + command.program() + ": " + e.getMessage());
        }
        try {
            closeStdin(process);
            // UTF-8 needs at most 4 bytes a character: enough bytes for the character cap, and a count of the rest
            OutputCapture output = OutputCapture.start(process.getInputStream(),
                    (int) Math.min(Integer.MAX_VALUE - 8, outputChars * 4L + 4));
            boolean timedOut;
            AutoCloseable killOnCancel = cancel.onCancel(() -> ProcessTree.kill(process));
            try {
                timedOut = !process.waitFor(timeoutSecs, TimeUnit.SECONDS);
                if (timedOut) ProcessTree.kill(process);
            } finally {
                release(killOnCancel);
            }
            boolean drained = output.awaitEnd(DRAIN_MILLIS);
            cancel.throwIfCancelled();
            return render(command, process, output, timedOut, drained);
        } finally {
            // interrupted or failed half-way: leave nothing running
            if (process.isAlive()) ProcessTree.kill(process);
        }
    }

    private ToolResult render(ShellCommand command, Process process, OutputCapture output, boolean timedOut, boolean drained) {
        String text = new String(output.bytes(), StandardCharsets.UTF_8);
        boolean cut = output.totalBytes() > output.bytes().length || text.length() > outputChars;
        if (text.length() > outputChars) {
            int keep = outputChars;
            if (Character.isHighSurrogate(text.charAt(keep - 1))) keep--;
            text = text.substring(0, keep);
        }
        StringBuilder r = new StringBuilder();
        if (timedOut) {
            r.append("[timed out after ").append(timeoutSecs).append(" s: ").append(command.program())
                    .append(" and its child processes were killed]\n");
        } else {
            r.append("exit code: ").append(process.exitValue()).append('\n');
        }
        r.append(text);
        if (!text.isEmpty() && !text.endsWith("\n")) r.append('\n');
        if (cut) {
            r.append("[... output cut at ").append(outputChars).append(" characters; ")
                    .append(output.totalBytes()).append(" bytes in all]\n");
        }
        if (!drained) r.append("[output still held open by a background process; it was not waited for]\n");
        if (output.failure() != null) r.append("[output could not be read to the end: ").append(output.failure().getMessage()).append("]\n");
        String result = r.toString().stripTrailing();
        return timedOut ? ToolResult.error(result) : ToolResult.ok(result);
    }

    private static void release(AutoCloseable listener) {
        try {
            listener.close();
        } catch (Exception e) {
            throw new IllegalStateException("cancel listener could not be removed", e);
        }
    }

    private static void closeStdin(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // the program may already have exited; it gets end-of-input either way
            LOG.debug("closing stdin of shell command failed: {}", e.toString());
        }
    }
}
