package dev.clawgate.core.internal.tool.builtin.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cgroups the shell sandbox puts each command in, for the limits bubblewrap has no flag for (SPEC AG-8): the
 * process count ({@code pids.max}) and the memory of all its processes together. Cgroup v1 (a {@code pids} and a
 * {@code memory} hierarchy) and v2 (one unified hierarchy) are both supported. Each command gets its own group,
 * {@code clawgate-shell-<gateway pid>-<n>}, next to the gateway's own cgroup (v1) or below it or its parent (v2, where
 * a delegated subtree must have the controllers enabled); the group is removed when the command ends.
 */
final class ShellCgroups {
    private static final Logger LOG = LoggerFactory.getLogger(ShellCgroups.class);
    static final String PREFIX = "clawgate-shell-";
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final long SELF = ProcessHandle.current().pid();

    /** A limit file of a group and the value it gets; optional ones are skipped where the kernel lacks them. */
    private record Setting(String file, boolean required, ToLongFunction<SandboxLimits> value) {}

    /** Where groups are made in one hierarchy, and what each gets. */
    private record Place(Path parent, List<Setting> settings, String controller) {}

    private final List<Place> places;
    private final String version;

    private ShellCgroups(List<Place> places, String version) {
        this.places = List.copyOf(places);
        this.version = version;
    }

    /** What was found: the usable cgroups (possibly only one of the two limits), and what is missing and why. */
    record Found(Optional<ShellCgroups> cgroups, List<String> missing) {}

    /** Finds, prepares and tries out the cgroups this process may use, per {@code /proc/self}. */
    static Found find(SandboxLimits limits) {
        try {
            String cgroup = Files.readString(Path.of("/proc/self/cgroup"));
            String mountinfo = Files.readString(Path.of("/proc/self/mountinfo"));
            return find(CgroupMounts.parse(cgroup, mountinfo), limits);
        } catch (IOException e) {
            return new Found(
                    Optional.empty(),
                    List.of("the process count and memory: /proc/self/cgroup cannot be" + " read (" + e.getMessage()
                            + ")"));
        }
    }

    static Found find(CgroupMounts mounts, SandboxLimits limits) {
        List<Place> places = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        String version;
        if (mounts.pidsV1().isPresent() || mounts.memoryV1().isPresent()) {
            version = "v1";
            tryPlace(
                    mounts.pidsV1(),
                    "pids",
                    List.of(new Setting("pids.max", true, SandboxLimits::processes)),
                    limits,
                    places,
                    missing);
            tryPlace(
                    mounts.memoryV1(),
                    "memory",
                    List.of(
                            new Setting("memory.limit_in_bytes", true, SandboxLimits::memoryBytes),
                            new Setting("memory.memsw.limit_in_bytes", false, SandboxLimits::memoryBytes)),
                    limits,
                    places,
                    missing);
        } else if (mounts.unified().isPresent()) {
            version = "v2";
            unified(mounts.unified().get(), limits, places, missing);
        } else {
            version = "none";
            missing.add("the process count and memory: no cgroup hierarchy is mounted");
        }
        return new Found(places.isEmpty() ? Optional.empty() : Optional.of(new ShellCgroups(places, version)), missing);
    }

    private static void tryPlace(
            Optional<Path> own,
            String controller,
            List<Setting> settings,
            SandboxLimits limits,
            List<Place> places,
            List<String> missing) {
        String what = controller.equals("pids") ? "the process count" : "the memory";
        if (own.isEmpty()) {
            missing.add(what + ": no cgroup v1 " + controller + " hierarchy is mounted");
            return;
        }
        Place place = new Place(own.get(), settings, controller);
        try {
            removeStale(place.parent());
            new ShellCgroups(List.of(place), "v1").create(limits).close();
            places.add(place);
        } catch (IOException | RuntimeException e) {
            missing.add(what + ": cannot make a cgroup in " + own.get() + " (" + e.getMessage() + ")");
        }
    }

    /** v2: the gateway's own cgroup, else its parent (a delegated subtree whose leaf holds the gateway). */
    private static void unified(Path own, SandboxLimits limits, List<Place> places, List<String> missing) {
        List<Setting> settings = List.of(
                new Setting("pids.max", true, SandboxLimits::processes),
                new Setting("memory.max", true, SandboxLimits::memoryBytes),
                new Setting("memory.swap.max", false, l -> 0));
        List<String> tried = new ArrayList<>();
        for (Path base : own.getParent() == null ? List.of(own) : List.of(own, own.getParent())) {
            try {
                enableControllers(base);
                Place place = new Place(base, settings, "pids+memory");
                removeStale(base);
                new ShellCgroups(List.of(place), "v2").create(limits).close();
                places.add(place);
                return;
            } catch (IOException | RuntimeException e) {
                tried.add(base + " (" + e.getMessage() + ")");
            }
        }
        missing.add("the process count and memory: no delegated cgroup v2 subtree with pids and memory enabled; tried "
                + String.join(", ", tried));
    }

    private static void enableControllers(Path base) throws IOException {
        Set<String> available = Set.of(
                Files.readString(base.resolve("cgroup.controllers")).strip().split("\\s+"));
        if (!available.containsAll(Set.of("pids", "memory"))) {
            throw new IOException("the pids and memory controllers are not available there");
        }
        Set<String> enabled = Set.of(
                Files.readString(base.resolve("cgroup.subtree_control")).strip().split("\\s+"));
        if (!enabled.containsAll(Set.of("pids", "memory"))) {
            Files.writeString(base.resolve("cgroup.subtree_control"), "+pids +memory");
        }
    }

    /** Groups left by a gateway process that no longer runs (a crash): removed when empty. */
    private static void removeStale(Path parent) {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path child : children) {
                String[] parts = child.getFileName()
                        .toString()
                        .substring(PREFIX.length())
                        .split("-");
                long pid;
                try {
                    pid = Long.parseLong(parts[0]);
                } catch (NumberFormatException e) {
                    continue;
                }
                if (pid == SELF
                        || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) continue;
                try {
                    Files.delete(child);
                } catch (IOException e) {
                    LOG.debug("stale shell cgroup {} stays: {}", child, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.debug("cannot list {} for stale shell cgroups: {}", parent, e.toString());
        }
    }

    /** "v1 (pids at ..., memory at ...)" for the doctor and the start log. */
    String describe() {
        return "cgroup " + version + " ("
                + String.join(
                        ", ",
                        places.stream()
                                .map(p -> p.controller() + " in " + p.parent())
                                .toList()) + ")";
    }

    boolean limitsProcesses() {
        return places.stream()
                .anyMatch(p -> p.settings().stream().anyMatch(s -> s.file().equals("pids.max")));
    }

    boolean limitsMemory() {
        return places.stream()
                .anyMatch(p -> p.settings().stream().anyMatch(s -> s.file().startsWith("memory.")));
    }

    /** A new, empty group per hierarchy with the limits set; the caller adds the command's first process to it. */
    RunCgroup create(SandboxLimits limits) throws IOException {
        String name = PREFIX + SELF + "-" + SEQUENCE.incrementAndGet();
        List<Path> made = new ArrayList<>();
        try {
            for (Place place : places) {
                Path dir = Files.createDirectory(place.parent().resolve(name));
                made.add(dir);
                for (Setting s : place.settings()) {
                    Path file = dir.resolve(s.file());
                    if (!s.required() && !Files.exists(file)) continue;
                    Files.writeString(file, Long.toString(s.value().applyAsLong(limits)), StandardCharsets.US_ASCII);
                }
            }
        } catch (IOException | RuntimeException e) {
            new RunCgroup(made).close();
            throw e;
        }
        return new RunCgroup(made);
    }
}
