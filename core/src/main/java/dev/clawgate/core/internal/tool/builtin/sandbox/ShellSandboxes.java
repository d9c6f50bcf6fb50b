package dev.clawgate.core.internal.tool.builtin.sandbox;

import dev.clawgate.core.config.ShellSandboxMode;
import dev.clawgate.core.config.ToolSettings;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses what the shell tool's commands run in (SPEC AG-8): with {@code tools.shell_sandbox = "bwrap"} (the default)
 * bubblewrap, when a probe shows it works here, and otherwise nothing, so the shell tool is off; with {@code "none"} no
 * sandbox. The probe really runs a command in the sandbox, once per process: once with the rlimits, and once more in a
 * cgroup, so each mechanism is used only where it works.
 */
public final class ShellSandboxes {
    private static final Logger LOG = LoggerFactory.getLogger(ShellSandboxes.class);
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static Probe probed;

    private ShellSandboxes() {}

    static final String ENABLE_FIX = "install bubblewrap (Debian, Ubuntu: apt-get install bubblewrap) and allow user"
            + " namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later also"
            + " kernel.apparmor_restrict_unprivileged_userns=0, or run the gateway as root), then restart; or set"
            + " tools.shell_sandbox = \"none\" to run commands without a sandbox (not recommended)";
    static final String CGROUP_FIX = "run the gateway as root on cgroup v1, or in a cgroup v2 subtree delegated to it"
            + " with the pids and memory controllers (systemd: Delegate=pids memory and DelegateSubgroup=gateway in its"
            + " service)";

    /** What bubblewrap, prlimit and the cgroups did in the probe. */
    record Probe(
            Optional<Path> bwrap,
            String version,
            String failure,
            Optional<Path> prlimit,
            String prlimitFailure,
            ShellCgroups.Found cgroups) {}

    /**
     * The sandbox for {@code settings}; {@code hidden} are the paths no command may see (the gateway's config file and
     * data dir).
     */
    public static ShellSandboxStatus select(ToolSettings settings, List<Path> hidden) {
        ShellSandboxMode mode = settings.shellSandbox();
        if (settings.shellAllowlist().isEmpty()) {
            return new ShellSandboxStatus(
                    mode,
                    Optional.empty(),
                    List.of(SandboxFinding.ok("shell tool off: tools.shell_allowlist is empty")));
        }
        SandboxLimits limits = SandboxLimits.forTimeout(settings.shellTimeoutSecs());
        if (mode == ShellSandboxMode.NONE) {
            return new ShellSandboxStatus(
                    mode,
                    Optional.of(new Unsandboxed(limits)),
                    List.of(SandboxFinding.warning(
                            "tools.shell_sandbox = \"none\": shell commands run without a sandbox, as the gateway's "
                                    + "user,"
                                    + " seeing its files and network; only the argument checks and the timeout "
                                    + "confine them",
                            "remove tools.shell_sandbox (bubblewrap is then used when it works here)")));
        }
        return fromProbe(probe(), limits, hidden, mode);
    }

    static ShellSandboxStatus fromProbe(Probe p, SandboxLimits limits, List<Path> hidden, ShellSandboxMode mode) {
        List<SandboxFinding> findings = new ArrayList<>();
        if (p.failure() != null) {
            findings.add(SandboxFinding.problem(
                    "shell tool off: the bubblewrap sandbox does not work here: " + p.failure(), ENABLE_FIX));
            return new ShellSandboxStatus(mode, Optional.empty(), findings);
        }
        Bubblewrap sandbox =
                new Bubblewrap(p.bwrap().orElseThrow(), p.prlimit(), p.cgroups().cgroups(), limits, hidden);
        findings.add(SandboxFinding.ok(
                "shell sandbox: " + p.version() + " (" + p.bwrap().get() + "): the workspace the"
                        + " only writable place, a read-only minimal system, no network, a cleared environment"));
        if (p.prlimit().isPresent()) {
            findings.add(SandboxFinding.ok("shell limits per process (prlimit): " + limits.cpuSeconds() + " s of CPU, "
                    + limits.addressSpaceBytes() / SandboxLimits.MIB + " MiB of address space, files up to "
                    + limits.fileBytes() / SandboxLimits.MIB + " MiB"));
        } else {
            findings.add(SandboxFinding.warning(
                    "shell commands' CPU time, address space and file size are not" + " limited: " + p.prlimitFailure(),
                    "install util-linux (it has prlimit) in /usr/bin"));
        }
        Optional<ShellCgroups> cg = p.cgroups().cgroups();
        if (cg.isPresent()) {
            findings.add(SandboxFinding.ok("shell limits per command ("
                    + cg.get().describe() + "): "
                    + (cg.get().limitsProcesses() ? limits.processes() + " processes" : "")
                    + (cg.get().limitsProcesses() && cg.get().limitsMemory() ? ", " : "")
                    + (cg.get().limitsMemory() ? limits.memoryBytes() / SandboxLimits.MIB + " MiB of memory" : "")));
        }
        if (!p.cgroups().missing().isEmpty()) {
            findings.add(SandboxFinding.warning(
                    "shell commands are not limited in "
                            + String.join("; ", p.cgroups().missing()),
                    CGROUP_FIX));
        }
        return new ShellSandboxStatus(mode, Optional.of(sandbox), findings);
    }

    /** The probe, run on first use and kept for the life of the process. */
    static Probe probe() {
        LOCK.lock();
        try {
            if (probed == null) probed = runProbe();
            return probed;
        } finally {
            LOCK.unlock();
        }
    }

    private static Probe runProbe() {
        SandboxLimits limits = SandboxLimits.forTimeout(10);
        Optional<Path> bwrap = onPath("bwrap");
        ShellCgroups.Found noCgroups = new ShellCgroups.Found(Optional.empty(), List.of());
        if (bwrap.isEmpty()) {
            return new Probe(bwrap, "", "bubblewrap (bwrap) is not installed", Optional.empty(), "", noCgroups);
        }
        String version = output(List.of(bwrap.get().toString(), "--version")).strip();
        Optional<Path> prlimit = Optional.of(Path.of("/usr/bin/prlimit")).filter(Files::isExecutable);
        String prlimitFailure = prlimit.isEmpty() ? "/usr/bin/prlimit is not installed" : "";
        String failure = trial(new Bubblewrap(bwrap.get(), prlimit, Optional.empty(), limits, List.of()));
        if (failure != null && prlimit.isPresent()) {
            String without = trial(new Bubblewrap(bwrap.get(), Optional.empty(), Optional.empty(), limits, List.of()));
            if (without == null) {
                prlimitFailure = "prlimit fails inside the sandbox: " + failure;
                prlimit = Optional.empty();
                failure = null;
            }
        }
        if (failure != null) return new Probe(bwrap, version, failure, Optional.empty(), "", noCgroups);
        ShellCgroups.Found cgroups = ShellCgroups.find(limits);
        if (cgroups.cgroups().isPresent()) {
            String inGroup = trial(new Bubblewrap(bwrap.get(), prlimit, cgroups.cgroups(), limits, List.of()));
            if (inGroup != null) {
                cgroups = new ShellCgroups.Found(
                        Optional.empty(),
                        List.of("the process count and memory: a command in" + " a cgroup fails: " + inGroup));
            }
        }
        return new Probe(bwrap, version.isEmpty() ? "bubblewrap" : version, null, prlimit, prlimitFailure, cgroups);
    }

    /** Runs {@code true} in {@code sandbox} in a scratch workspace; null when it works, else what went wrong. */
    private static String trial(Bubblewrap sandbox) {
        Path ws = null;
        try {
            ws = Files.createTempDirectory("clawgate-sandbox-probe");
            try (SandboxedRun run = sandbox.start(List.of("true"), ws)) {
                byte[] out = run.process().getInputStream().readNBytes(2_000);
                if (!run.process().waitFor(20, TimeUnit.SECONDS)) return "a trial command did not finish in 20 s";
                int code = run.process().exitValue();
                return code == 0 ? null : "exit code " + code + ": " + new String(out, StandardCharsets.UTF_8).strip();
            }
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            if (ws != null) {
                try {
                    Files.deleteIfExists(ws);
                } catch (IOException e) {
                    LOG.debug("sandbox probe directory {} stays: {}", ws, e.toString());
                }
            }
        }
    }

    private static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        List<String> dirs = new ArrayList<>(path == null ? List.of() : List.of(path.split(File.pathSeparator)));
        dirs.add("/usr/bin");
        return dirs.stream()
                .filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, program))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private static String output(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readNBytes(500), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly();
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
