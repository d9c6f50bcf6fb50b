package dev.clawgate.core.internal.tool.builtin.sandbox;

/**
 * One thing {@code clawgate doctor} and the start log say about the shell sandbox (SPEC AG-8, OP-4).
 *
 * @param fix what to do about it; empty for {@link Level#OK}
 */
public record SandboxFinding(Level level, String what, String fix) {
    public enum Level {
        /** Works as intended. */
        OK,
        /** Works with less protection than intended: the shell tool is still offered. */
        WARNING,
        /** The shell tool is off because of it. */
        PROBLEM
    }

    static SandboxFinding ok(String what) {
        return new SandboxFinding(Level.OK, what, "");
    }

    static SandboxFinding warning(String what, String fix) {
        return new SandboxFinding(Level.WARNING, what, fix);
    }

    static SandboxFinding problem(String what, String fix) {
        return new SandboxFinding(Level.PROBLEM, what, fix);
    }
}
