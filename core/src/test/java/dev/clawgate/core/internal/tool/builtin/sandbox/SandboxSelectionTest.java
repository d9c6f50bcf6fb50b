package dev.clawgate.core.internal.tool.builtin.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.ShellSandboxMode;
import dev.clawgate.core.config.ToolSettings;
import dev.clawgate.core.internal.tool.builtin.sandbox.SandboxFinding.Level;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

// SPEC AG-8: bubblewrap when it works, else no shell tool and a finding saying why and how to enable it;
// "none" only as an explicit, reported opt-out; each limit reported as enforced or not
class SandboxSelectionTest {
    private static final SandboxLimits LIMITS = SandboxLimits.forTimeout(30);
    private static final ShellCgroups.Found NO_CGROUPS = new ShellCgroups.Found(
            Optional.empty(), List.of("the process count and memory: no cgroup hierarchy is mounted"));

    @Test
    void whenBubblewrapDoesNotWorkTheShellIsOffAndTheFindingSaysHowToEnableIt() {
        ShellSandboxes.Probe broken = new ShellSandboxes.Probe(
                Optional.of(Path.of("/usr/bin/bwrap")),
                "bubblewrap 0.8.0",
                "exit code 1: bwrap: No permissions to create new namespace",
                Optional.empty(),
                "",
                NO_CGROUPS);
        ShellSandboxStatus status = ShellSandboxes.fromProbe(broken, LIMITS, List.of(), ShellSandboxMode.BWRAP);
        assertThat(status.sandbox()).isEmpty();
        assertThat(status.findings()).singleElement().satisfies(f -> {
            assertThat(f.level()).isEqualTo(Level.PROBLEM);
            assertThat(f.what()).contains("shell tool off").contains("No permissions to create new namespace");
            assertThat(f.fix()).contains("apt-get install bubblewrap").contains("tools.shell_sandbox = \"none\"");
        });
    }

    @Test
    void aWorkingSandboxWithoutCgroupsOrPrlimitIsUsedAndTheMissingLimitsAreWarnedAbout() {
        ShellSandboxes.Probe partial = new ShellSandboxes.Probe(
                Optional.of(Path.of("/usr/bin/bwrap")),
                "bubblewrap 0.8.0",
                null,
                Optional.empty(),
                "/usr/bin/prlimit is not installed",
                NO_CGROUPS);
        ShellSandboxStatus status = ShellSandboxes.fromProbe(partial, LIMITS, List.of(), ShellSandboxMode.BWRAP);
        assertThat(status.sandbox()).containsInstanceOf(Bubblewrap.class);
        assertThat(status.findings())
                .extracting(SandboxFinding::level)
                .containsExactly(Level.OK, Level.WARNING, Level.WARNING);
        assertThat(status.findings().get(1).what()).contains("CPU time, address space and file size are not limited");
        assertThat(status.findings().get(2).what()).contains("no cgroup hierarchy is mounted");
        assertThat(status.findings().get(2).fix()).contains("Delegate=");
    }

    @Test
    void onThisMachineTheRealProbeFindsBubblewrapWithEveryLimit() {
        ShellSandboxStatus status = ShellSandboxes.select(ToolSettings.defaults(), List.of());
        assertThat(status.sandbox()).as(status.findings().toString()).containsInstanceOf(Bubblewrap.class);
        assertThat(status.findings()).as(status.findings().toString()).allMatch(f -> f.level() == Level.OK);
        Bubblewrap bwrap = (Bubblewrap) status.sandbox().get();
        assertThat(bwrap.prlimit()).isPresent();
        assertThat(bwrap.cgroups()).hasValueSatisfying(c -> {
            assertThat(c.limitsProcesses()).isTrue();
            assertThat(c.limitsMemory()).isTrue();
        });
    }

    @Test
    void noneIsAnExplicitOptOutWithAWarningAndAnEmptyAllowlistNeedsNoSandbox() {
        ToolSettings none = new ToolSettings(8_000, List.of("ls"), 10, 1_000, ShellSandboxMode.NONE);
        ShellSandboxStatus status = ShellSandboxes.select(none, List.of());
        assertThat(status.sandbox()).containsInstanceOf(Unsandboxed.class);
        assertThat(status.findings()).singleElement().satisfies(f -> {
            assertThat(f.level()).isEqualTo(Level.WARNING);
            assertThat(f.what()).contains("without a sandbox");
        });
        ShellSandboxStatus off = ShellSandboxes.select(new ToolSettings(8_000, List.of(), 10, 1_000), List.of());
        assertThat(off.sandbox()).isEmpty();
        assertThat(off.findings())
                .singleElement()
                .satisfies(f -> assertThat(f.level()).isEqualTo(Level.OK));
    }
}
