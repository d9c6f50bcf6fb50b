/**
 * Where the {@code shell} tool's commands run (SPEC AG-8):
 * {@link dev.clawgate.core.internal.tool.builtin.sandbox.Bubblewrap} (namespaces, a minimal read-only system, the
 * workspace the only writable place, no network) with its limits
 * ({@link dev.clawgate.core.internal.tool.builtin.sandbox.SandboxLimits}: rlimits through {@code prlimit}, process
 * count and memory through a cgroup), or, only when {@code tools.shell_sandbox = "none"},
 * {@link dev.clawgate.core.internal.tool.builtin.sandbox.Unsandboxed}.
 * {@link dev.clawgate.core.internal.tool.builtin.sandbox.ShellSandboxes#select} probes what works here.
 */
package dev.clawgate.core.internal.tool.builtin.sandbox;
