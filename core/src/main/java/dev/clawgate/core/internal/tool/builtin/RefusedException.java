package dev.clawgate.core.internal.tool.builtin;

/**
 * A built-in tool declined to act: a bad argument, a path outside the workspace, a command not on the allowlist. The
 * message is shown to the model as the tool's error result.
 */
public final class RefusedException extends Exception {
    public RefusedException(String message) {
        super(message, null, false, false);
    }
}
