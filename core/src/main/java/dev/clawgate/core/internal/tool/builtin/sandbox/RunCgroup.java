package dev.clawgate.core.internal.tool.builtin.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One shell command's cgroups, one per hierarchy: its processes go in, are killed, the groups removed (SPEC AG-8). */
final class RunCgroup implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunCgroup.class);
    private static final long EMPTY_WAIT_NANOS = 5_000_000_000L;
    private final List<Path> dirs;

    RunCgroup(List<Path> dirs) {
        this.dirs = List.copyOf(dirs);
    }

    /** Moves process {@code pid} (before it starts any other) into every group; its children are born inside. */
    void add(long pid) throws IOException {
        for (Path dir : dirs) {
            Files.writeString(dir.resolve("cgroup.procs"), Long.toString(pid), StandardCharsets.US_ASCII);
        }
    }

    /** Kills every process in the groups: {@code cgroup.kill} where the kernel has it (v2), else one by one. */
    void killAll() {
        for (Path dir : dirs) {
            Path kill = dir.resolve("cgroup.kill");
            if (Files.exists(kill)) {
                try {
                    Files.writeString(kill, "1");
                } catch (IOException e) {
                    LOG.debug("cgroup.kill of {} failed: {}", dir, e.toString());
                }
            }
        }
        long deadline = System.nanoTime() + EMPTY_WAIT_NANOS;
        List<Long> left;
        while (!(left = processes()).isEmpty() && System.nanoTime() < deadline) {
            for (long pid : left) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            LockSupport.parkNanos(10_000_000L);
        }
    }

    private List<Long> processes() {
        List<Long> pids = new ArrayList<>();
        for (Path dir : dirs) {
            try {
                for (String line : Files.readAllLines(dir.resolve("cgroup.procs"))) {
                    if (!line.isBlank()) pids.add(Long.parseLong(line.strip()));
                }
            } catch (NoSuchFileException gone) {
                // already removed
            } catch (IOException e) {
                LOG.debug("cannot read {}/cgroup.procs: {}", dir, e.toString());
            }
        }
        return pids;
    }

    /** Kills what is left and removes the groups; a group that cannot be removed is logged and left. */
    @Override
    public void close() {
        killAll();
        for (Path dir : dirs) {
            try {
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                LOG.warn("shell cgroup {} could not be removed: {}", dir, e.toString());
            }
        }
    }
}
