package dev.clawgate.provider.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a process and everything it started: SIGTERM to the whole tree, a grace period, then SIGKILL to whatever is left
 * (a program that ignores SIGTERM included). The tree is read before the root is signalled, since children of a dead
 * parent are no longer its descendants.
 */
final class ProcessTree {
    private static final Logger log = LoggerFactory.getLogger(ProcessTree.class);

    private ProcessTree() {}

    /** The root and all its descendants alive now, root first. */
    static List<ProcessHandle> snapshot(ProcessHandle root) {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(root);
        root.descendants().forEach(all::add);
        return all;
    }

    /** Kills the tree of {@code root}; returns once every process of it has exited (or SIGKILL was sent). */
    static void kill(ProcessHandle root, Duration grace) {
        Set<ProcessHandle> tree = new LinkedHashSet<>(snapshot(root));
        for (ProcessHandle h : tree) h.destroy();
        if (!awaitExit(tree, grace)) {
            // what the survivors started meanwhile goes too
            List<ProcessHandle> survivors =
                    tree.stream().filter(ProcessHandle::isAlive).toList();
            for (ProcessHandle h : survivors) h.descendants().forEach(tree::add);
            for (ProcessHandle h : tree) {
                if (h.isAlive()) {
                    log.debug("process {} ignored SIGTERM; killing it", h.pid());
                    h.destroyForcibly();
                }
            }
            awaitExit(tree, Duration.ofSeconds(5));
        }
    }

    private static boolean awaitExit(Set<ProcessHandle> tree, Duration within) {
        CompletableFuture<?>[] exits = tree.stream()
                .filter(ProcessHandle::isAlive)
                .map(ProcessHandle::onExit)
                .toArray(CompletableFuture[]::new);
        if (exits.length == 0) return true;
        try {
            CompletableFuture.allOf(exits).get(within.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return tree.stream().noneMatch(ProcessHandle::isAlive);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return tree.stream().noneMatch(ProcessHandle::isAlive);
        }
    }
}
