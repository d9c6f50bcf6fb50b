package dev.clawgate.core.config;

import java.util.List;

/**
 * {@code [tools]} (SPEC AG-3, AG-5, AG-8).
 *
 * @param shellAllowlist the commands {@code shell} may run (first word); empty = shell disabled
 * @param shellSandbox {@code tools.shell_sandbox}: bubblewrap (the default) or none
 */
public record ToolSettings(
        int maxResultChars,
        List<String> shellAllowlist,
        int shellTimeoutSecs,
        int shellOutputCap,
        ShellSandboxMode shellSandbox) {
    public ToolSettings {
        shellAllowlist = shellAllowlist == null ? List.of() : List.copyOf(shellAllowlist);
        shellSandbox = shellSandbox == null ? ShellSandboxMode.BWRAP : shellSandbox;
    }

    /** With the default sandbox (bubblewrap). */
    public ToolSettings(int maxResultChars, List<String> shellAllowlist, int shellTimeoutSecs, int shellOutputCap) {
        this(maxResultChars, shellAllowlist, shellTimeoutSecs, shellOutputCap, ShellSandboxMode.BWRAP);
    }

    public static ToolSettings defaults() {
        return new ToolSettings(
                8_000,
                List.of(
                        "ls", "cat", "echo", "pwd", "date", "head", "tail", "wc", "grep", "find", "sort", "uniq",
                        "mkdir", "touch", "cp", "mv"),
                60,
                16_000,
                ShellSandboxMode.BWRAP);
    }
}
