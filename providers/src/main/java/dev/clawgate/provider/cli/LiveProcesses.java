package dev.clawgate.provider.cli;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every agent process the CLI providers of this JVM have running, so a JVM that exits without closing its providers (a
 * signal, {@code System.exit}) still takes their trees with it.
 */
final class LiveProcesses {
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform().name("clawgate-cli-reaper").unstarted(() -> {
                    for (Process p : RUNNING) {
                        for (ProcessHandle h : ProcessTree.snapshot(p.toHandle())) h.destroyForcibly();
                    }
                }));
    }

    private LiveProcesses() {}

    static void add(Process p) {
        RUNNING.add(p);
    }

    static void remove(Process p) {
        RUNNING.remove(p);
    }
}
