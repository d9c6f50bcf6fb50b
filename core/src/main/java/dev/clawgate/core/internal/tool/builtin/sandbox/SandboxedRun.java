package dev.clawgate.core.internal.tool.builtin.sandbox;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One started command (SPEC AG-8): its process, and a kill that ends everything the command started. Inside bubblewrap
 * that is the sandbox's PID namespace: when the bubblewrap process dies its child, the namespace's init, is killed
 * ({@code --die-with-parent}) and the kernel kills every process in the namespace; the command's cgroup, if any, is
 * emptied as well. Close it when done: that kills what is left and removes the cgroup.
 */
public final class SandboxedRun implements AutoCloseable {
    private final Process process;
    private final RunCgroup cgroup;

    SandboxedRun(Process process, RunCgroup cgroup) {
        this.process = process;
        this.cgroup = cgroup;
    }

    public Process process() {
        return process;
    }

    /** Kills the command and everything it started, then waits briefly so the process is reaped. */
    public void kill() {
        // snapshot first: once the root dies its children are re-parented and no longer its descendants
        List<ProcessHandle> tree = process.descendants().toList();
        process.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
        if (cgroup != null) cgroup.killAll();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) kill();
        if (cgroup != null) cgroup.close();
    }
}
