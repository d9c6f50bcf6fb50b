package dev.clawgate.core.internal.tool.builtin.sandbox;

/**
 * What one shell command may use (SPEC AG-8), and what enforces each limit:
 *
 * <ul>
 *   <li>{@code cpuSeconds}: RLIMIT_CPU per process, set by {@code prlimit} inside the sandbox (SIGXCPU, then SIGKILL a
 *       second later); the wall-clock {@code tools.shell_timeout_secs} kills the whole sandbox anyway.
 *   <li>{@code addressSpaceBytes}: RLIMIT_AS per process, by {@code prlimit}.
 *   <li>{@code fileBytes}: RLIMIT_FSIZE, the largest file a command may write, by {@code prlimit}; also the size of the
 *       private {@code /tmp} and {@code /dev/shm} (bubblewrap's tmpfs size).
 *   <li>{@code processes}: the cgroup's {@code pids.max}. RLIMIT_NPROC is not used: it counts every process of the user
 *       (the gateway's threads too) and is not enforced at all for root.
 *   <li>{@code memoryBytes}: the cgroup's {@code memory.max} (v2) or {@code memory.limit_in_bytes} (v1), for all
 *       processes of the command together, tmpfs pages included.
 *   <li>{@code outputBytes}: read by the shell tool; past it the sandbox is killed and the output so far returned.
 * </ul>
 *
 * Without {@code prlimit} the rlimits are missing; without a writable cgroup the process count and total memory are not
 * limited (the PID namespace and the timeout still end every process). {@code clawgate doctor} says which.
 */
public record SandboxLimits(
        int cpuSeconds, long addressSpaceBytes, long fileBytes, int processes, long memoryBytes, long outputBytes) {
    static final long MIB = 1024L * 1024;

    public SandboxLimits {
        if (cpuSeconds < 1
                || addressSpaceBytes < MIB
                || fileBytes < 1
                || processes < 2
                || memoryBytes < MIB
                || outputBytes < 1) {
            throw new IllegalArgumentException(
                    "sandbox limits must be positive (at least 2 processes and 1 MiB of" + " memory)");
        }
    }

    /** The limits for a command that may run {@code timeoutSecs}: CPU time up to that, fixed sizes for the rest. */
    public static SandboxLimits forTimeout(int timeoutSecs) {
        return new SandboxLimits(Math.max(1, timeoutSecs), 4096 * MIB, 64 * MIB, 64, 512 * MIB, 8 * MIB);
    }
}
