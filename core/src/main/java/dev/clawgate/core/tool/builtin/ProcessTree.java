package dev.clawgate.core.tool.builtin;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** Kills a process and everything it started. */
final class ProcessTree {
    private ProcessTree() {}

    /** Kills {@code root} and its descendants, then waits briefly so the root is reaped. */
    static void kill(Process root) {
        // snapshot first: once the root dies its children are re-parented and no longer its descendants
        List<ProcessHandle> tree = root.descendants().toList();
        root.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
        try {
            root.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
