package dev.clawgate.core.internal.tool.builtin.sandbox;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Where the shell tool runs a command that passed its checks (SPEC AG-8). */
public sealed interface ShellSandbox permits Bubblewrap, Unsandboxed {
    /**
     * Starts {@code argv} (a program and its arguments, run without a shell) in {@code workspace}, an existing absolute
     * directory, with stdout and stderr merged and stdin at end of input.
     */
    SandboxedRun start(List<String> argv, Path workspace) throws IOException;

    /** {@code "bwrap"} or {@code "none"}, as {@code tools.shell_sandbox} spells it. */
    String name();

    /** The limits a command runs with; only those its mechanisms enforce here apply (see {@link SandboxLimits}). */
    SandboxLimits limits();
}
