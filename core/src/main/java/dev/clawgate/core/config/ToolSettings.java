package dev.clawgate.core.config;

import java.util.List;

/**
 * {@code [tools]} (SPEC AG-3, AG-5).
 *
 * @param shellAllowlist the commands {@code shell} may run (first word); empty = shell disabled
 */
public record ToolSettings(int maxResultChars, List<String> shellAllowlist, int shellTimeoutSecs, int shellOutputCap) {
    public ToolSettings {
        shellAllowlist = shellAllowlist == null ? List.of() : List.copyOf(shellAllowlist);
    }

    public static ToolSettings defaults() {
        return new ToolSettings(8_000,
                List.of("ls", "cat", "echo", "pwd", "date", "head", "tail", "wc", "grep", "find", "sort", "uniq", "mkdir", "touch", "cp", "mv"),
                60, 16_000);
    }
}
