package dev.clawgate.core.internal.tool.builtin.sandbox;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where this process's cgroups are, read from {@code /proc/self/cgroup} and {@code /proc/self/mountinfo} (SPEC AG-8):
 * the directory of its cgroup in the v1 {@code pids} and {@code memory} hierarchies, or in the v2 unified one. Pure
 * parsing, so the v1, v2 and hybrid layouts are tested without a kernel.
 *
 * @param pidsV1 this process's cgroup directory in the v1 pids hierarchy, if mounted and reachable
 * @param memoryV1 the same in the v1 memory hierarchy
 * @param unified this process's cgroup directory in the v2 hierarchy, if mounted and reachable
 */
record CgroupMounts(Optional<Path> pidsV1, Optional<Path> memoryV1, Optional<Path> unified) {

    static CgroupMounts parse(String procSelfCgroup, String mountinfo) {
        List<Mount> mounts = mounts(mountinfo);
        Optional<Path> pids = Optional.empty();
        Optional<Path> memory = Optional.empty();
        Optional<Path> unified = Optional.empty();
        for (String line : procSelfCgroup.split("\n")) {
            String[] f = line.strip().split(":", 3);
            if (f.length < 3) continue;
            String path = f[2];
            if (f[0].equals("0") && f[1].isEmpty()) {
                unified = dir(mounts, null, path);
            } else {
                for (String controller : f[1].split(",")) {
                    if (controller.equals("pids")) pids = dir(mounts, "pids", path);
                    if (controller.equals("memory")) memory = dir(mounts, "memory", path);
                }
            }
        }
        return new CgroupMounts(pids, memory, unified);
    }

    /** One cgroup mount: which part of the hierarchy ({@code root}) is where; {@code controllers} null for v2. */
    private record Mount(String root, Path mountPoint, List<String> controllers) {}

    private static List<Mount> mounts(String mountinfo) {
        List<Mount> out = new ArrayList<>();
        for (String line : mountinfo.split("\n")) {
            int dash = line.indexOf(" - ");
            if (dash < 0) continue;
            String[] before = line.substring(0, dash).split(" ");
            String[] after = line.substring(dash + 3).split(" ");
            if (before.length < 5 || after.length < 3) continue;
            String root = unescape(before[3]);
            Path mountPoint = Path.of(unescape(before[4]));
            if (after[0].equals("cgroup2")) {
                out.add(new Mount(root, mountPoint, null));
            } else if (after[0].equals("cgroup")) {
                out.add(new Mount(root, mountPoint, List.of(after[2].split(","))));
            }
        }
        return out;
    }

    /** The directory of cgroup {@code path} under the mount of {@code controller} (null: the v2 mount). */
    private static Optional<Path> dir(List<Mount> mounts, String controller, String path) {
        for (Mount m : mounts) {
            boolean matches = controller == null
                    ? m.controllers() == null
                    : m.controllers() != null && m.controllers().contains(controller);
            if (!matches) continue;
            String root = m.root().endsWith("/") ? m.root() : m.root() + "/";
            String p = path.endsWith("/") ? path : path + "/";
            // a cgroup outside the mounted part of the hierarchy cannot be reached through this mount
            if (!p.startsWith(root)) continue;
            String relative = p.substring(root.length());
            return Optional.of(
                    relative.isEmpty() ? m.mountPoint() : m.mountPoint().resolve(relative));
        }
        return Optional.empty();
    }

    /** mountinfo escapes space, tab, newline and backslash as three octal digits. */
    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) return s;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean octal =
                    i + 3 < s.length() && s.substring(i + 1, i + 4).chars().allMatch(d -> d >= '0' && d <= '7');
            if (c == '\\' && octal) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
