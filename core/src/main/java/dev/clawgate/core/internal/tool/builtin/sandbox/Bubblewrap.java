package dev.clawgate.core.internal.tool.builtin.sandbox;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs each command in a bubblewrap sandbox (SPEC AG-8, AG-5). What the command sees and may do:
 *
 * <ul>
 *   <li>Files: the workspace, read-write, at its own (real) path; {@code /usr} and the {@code /bin}, {@code /sbin},
 *       {@code /lib*} entries read-only (as links where the host has merged them into {@code /usr}); of {@code /etc}
 *       only {@link #ETC_ENTRIES}; a fresh {@code /dev} (null, zero, full, random, urandom, tty) and a private,
 *       size-limited {@code /tmp} and {@code /dev/shm}. No {@code /proc} and no {@code /sys}: a command running as root
 *       (when the gateway does) could otherwise write root-owned files there such as
 *       {@code /proc/sys/kernel/core_pattern} or {@code /proc/sysrq-trigger}, which check no capability. The gateway's
 *       config file and data dir are hidden (an empty read-only directory, or {@code /dev/null}) where they lie inside
 *       anything bound.
 *   <li>No network: a new network namespace with only its own loopback. New user, PID, IPC, UTS and cgroup namespaces,
 *       no further user namespaces inside, every capability dropped, a new session (no terminal to push input into),
 *       and it dies with the gateway ({@code --die-with-parent}).
 *   <li>A cleared environment: only {@code PATH}, {@code LANG} and {@code HOME} (the workspace); the gateway's provider
 *       keys and tokens never reach a command.
 *   <li>Limits: see {@link SandboxLimits} for which mechanism enforces which.
 * </ul>
 */
final class Bubblewrap implements ShellSandbox {
    /** What of {@code /etc} the programs need: the dynamic linker's cache, alternatives, the time zone, user names. */
    static final List<String> ETC_ENTRIES = List.of(
            "ld.so.cache",
            "ld.so.conf",
            "ld.so.conf.d",
            "alternatives",
            "localtime",
            "timezone",
            "passwd",
            "group",
            "nsswitch.conf");
    /** Top-level system directories programs load from; each bound read-only, or linked where the host links it. */
    static final List<String> SYSTEM_DIRS = List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32");

    static final String PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
    /** Holds the first process until it is in its cgroup, so nothing it starts can be born outside. */
    private static final List<String> WAIT_FOR_CGROUP =
            List.of("/bin/sh", "-c", "read -r go && exec \"$@\"", "clawgate-shell");

    private final Path bwrap;
    private final Optional<Path> prlimit;
    private final Optional<ShellCgroups> cgroups;
    private final SandboxLimits limits;
    private final List<Path> hidden;
    private final Path root;

    /**
     * @param prlimit util-linux {@code prlimit}, for the rlimits; it must lie in a directory the sandbox sees
     * @param hidden paths no command may see: the gateway's config file and data dir
     */
    Bubblewrap(
            Path bwrap,
            Optional<Path> prlimit,
            Optional<ShellCgroups> cgroups,
            SandboxLimits limits,
            List<Path> hidden) {
        this(bwrap, prlimit, cgroups, limits, hidden, Path.of("/"));
    }

    /** {@code root}: where the host's system directories are looked up (a test points it at a made-up tree). */
    Bubblewrap(
            Path bwrap,
            Optional<Path> prlimit,
            Optional<ShellCgroups> cgroups,
            SandboxLimits limits,
            List<Path> hidden,
            Path root) {
        this.bwrap = bwrap;
        this.prlimit = prlimit;
        this.cgroups = cgroups;
        this.limits = limits;
        this.hidden = List.copyOf(hidden);
        this.root = root;
    }

    @Override
    public String name() {
        return "bwrap";
    }

    @Override
    public SandboxLimits limits() {
        return limits;
    }

    Optional<ShellCgroups> cgroups() {
        return cgroups;
    }

    Optional<Path> prlimit() {
        return prlimit;
    }

    @Override
    public SandboxedRun start(List<String> argv, Path workspace) throws IOException {
        List<String> command = command(argv, workspace.toRealPath());
        RunCgroup group = cgroups.isPresent() ? cgroups.get().create(limits) : null;
        List<String> full = new ArrayList<>();
        if (group != null) full.addAll(WAIT_FOR_CGROUP);
        full.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(full).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", PATH);
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            if (group != null) group.close();
            throw e;
        }
        try (OutputStream stdin = process.getOutputStream()) {
            if (group != null) {
                group.add(process.pid());
                stdin.write('\n');
            }
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            if (group != null) group.close();
            throw new IOException("the command could not be put in its cgroup: " + e.getMessage(), e);
        }
        return new SandboxedRun(process, group);
    }

    /** The bubblewrap command line that runs {@code argv} in {@code workspace} (a real, absolute path). */
    List<String> command(List<String> argv, Path workspace) throws IOException {
        List<Path> hide = new ArrayList<>();
        for (Path h : hidden) {
            Path real = Files.exists(h) ? h.toRealPath() : h.toAbsolutePath().normalize();
            if (workspace.equals(real)) {
                throw new IOException("the workspace is " + real + ", which holds the gateway's own files; use a"
                        + " directory of its own");
            }
            hide.add(real);
        }
        if (Path.of("/usr").startsWith(workspace) || Path.of("/etc").startsWith(workspace)) {
            throw new IOException(
                    "the workspace " + workspace + " holds the system directories; use a directory of" + " its own");
        }
        List<String> c = new ArrayList<>(List.of(
                bwrap.toString(),
                "--unshare-all",
                "--unshare-user",
                "--disable-userns",
                "--die-with-parent",
                "--new-session",
                "--cap-drop",
                "ALL",
                "--clearenv",
                "--setenv",
                "PATH",
                PATH,
                "--setenv",
                "LANG",
                "C.UTF-8",
                "--setenv",
                "HOME",
                workspace.toString()));
        List<Path> bound = new ArrayList<>();
        bindSystem(c, bound, "usr", hide);
        for (String dir : SYSTEM_DIRS) bindSystem(c, bound, dir, hide);
        for (String entry : ETC_ENTRIES) bindSystem(c, bound, "etc/" + entry, hide);
        String tmpSize = Long.toString(limits.fileBytes());
        c.addAll(List.of("--dev", "/dev", "--size", tmpSize, "--tmpfs", "/dev/shm"));
        c.addAll(List.of("--size", tmpSize, "--tmpfs", "/tmp"));
        c.addAll(List.of("--bind", workspace.toString(), workspace.toString()));
        bound.add(workspace);
        cover(c, bound, hide);
        c.addAll(List.of("--chdir", workspace.toString(), "--"));
        prlimit.ifPresent(p -> c.addAll(List.of(
                p.toString(),
                "--cpu=" + limits.cpuSeconds() + ":" + (limits.cpuSeconds() + 1),
                "--as=" + limits.addressSpaceBytes(),
                "--fsize=" + limits.fileBytes(),
                "--core=0",
                "--")));
        c.addAll(argv);
        return c;
    }

    /** Binds {@code relative} (under the root) read-only at its path, or makes it the link it is on the host. */
    private void bindSystem(List<String> c, List<Path> bound, String relative, List<Path> hide) throws IOException {
        Path host = root.resolve(relative);
        Path inside = Path.of("/").resolve(relative);
        if (Files.isSymbolicLink(host)) {
            c.addAll(List.of("--symlink", Files.readSymbolicLink(host).toString(), inside.toString()));
        } else if (Files.exists(host) && !hide.contains(host.toRealPath())) {
            c.addAll(List.of("--ro-bind", host.toString(), inside.toString()));
            bound.add(host.toRealPath());
        }
    }

    /** Covers each hidden path inside something bound: an empty read-only directory, or /dev/null for a file. */
    private static void cover(List<String> c, List<Path> bound, List<Path> hide) {
        for (Path h : hide) {
            if (bound.stream().noneMatch(b -> h.startsWith(b) && !h.equals(b))) continue;
            if (Files.isDirectory(h)) {
                c.addAll(List.of("--tmpfs", h.toString(), "--remount-ro", h.toString()));
            } else if (Files.exists(h)) {
                c.addAll(List.of("--ro-bind", "/dev/null", h.toString()));
            }
        }
    }
}
