package dev.clawgate.core.internal.tool.builtin.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

// SPEC AG-8: the limits' cgroups are found on cgroup v1, v2 and the hybrid of both, from /proc/self
class CgroupMountsTest {
    private static final String V1_MOUNTS = """
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
            36 31 0:33 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
            39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
            41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
            """;

    @Test
    void cgroupV1FindsTheProcessesOwnGroupInThePidsAndMemoryHierarchies() {
        CgroupMounts m = CgroupMounts.parse("""
                8:pids:/
                4:memory:/process_api/abc
                1:cpu:/
                0::/
                """, V1_MOUNTS);
        assertThat(m.pidsV1()).contains(Path.of("/sys/fs/cgroup/pids"));
        assertThat(m.memoryV1()).contains(Path.of("/sys/fs/cgroup/memory/process_api/abc"));
        assertThat(m.unified()).contains(Path.of("/sys/fs/cgroup/unified"));
    }

    @Test
    void cgroupV2FindsTheProcessesGroupUnderTheUnifiedMount() {
        CgroupMounts m = CgroupMounts.parse(
                "0::/system.slice/clawgate.service/gateway\n",
                "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n");
        assertThat(m.pidsV1()).isEmpty();
        assertThat(m.memoryV1()).isEmpty();
        assertThat(m.unified()).contains(Path.of("/sys/fs/cgroup/system.slice/clawgate.service/gateway"));
    }

    @Test
    void aGroupOutsideTheMountedPartOfTheHierarchyIsNotReachable() {
        // a container sees only its own subtree mounted; a path outside it cannot be reached through the mount
        CgroupMounts m = CgroupMounts.parse(
                "0::/other/place\n", "30 23 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        assertThat(m.unified()).isEmpty();
        CgroupMounts inside = CgroupMounts.parse(
                "0::/docker/abc/app\n", "30 23 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        assertThat(inside.unified()).isEqualTo(Optional.of(Path.of("/sys/fs/cgroup/app")));
    }

    @Test
    void escapedMountPointsAndCombinedControllersAreRead() {
        CgroupMounts m = CgroupMounts.parse(
                "5:memory,pids:/a b\n", "40 23 0:40 / /cg\\040mix rw - cgroup cgroup rw,memory,pids\n");
        assertThat(m.pidsV1()).contains(Path.of("/cg mix/a b"));
        assertThat(m.memoryV1()).contains(Path.of("/cg mix/a b"));
        assertThat(CgroupMounts.parse("", ""))
                .isEqualTo(new CgroupMounts(Optional.empty(), Optional.empty(), Optional.empty()));
    }
}
