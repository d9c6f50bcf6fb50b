package dev.clawgate.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Linux and the JVM say about a child process: resident memory ({@code /proc/<pid>/status} VmRSS and its peak
 * VmHWM), CPU time ({@code /proc/<pid>/stat}), and, through {@code jcmd}, the live heap after a full collection and the
 * class histogram. Read from outside, so the figures cost the measured process nothing but the collection asked for.
 */
final class ProcessProbe {
    // G1 prints one "garbage-first heap total ..., used NK" line; Serial and Parallel one per generation
    private static final Pattern SPACE_USED = Pattern.compile(
            "(?m)^\\s*\\S[^\\[\\n]*?\\s+total\\s+(?:reserved\\s+\\d+K,\\s+committed\\s+)?\\d+K,\\s+used\\s+(\\d+)K");
    private static final Pattern HISTO_ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
    private static final long CLOCK_TICKS_PER_SECOND = 100; // USER_HZ; 100 on every Linux the JDK supports

    private final long pid;
    private final Path jcmd;

    ProcessProbe(long pid) {
        this.pid = pid;
        this.jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    }

    long pid() {
        return pid;
    }

    /** Resident set size now, in KiB; -1 when the process is gone. */
    long rssKib() {
        return statusField("VmRSS:");
    }

    /** The highest resident set size the process reached, in KiB; -1 when it is gone. */
    long peakRssKib() {
        return statusField("VmHWM:");
    }

    /** User plus system CPU time the process used so far, in milliseconds; -1 when it is gone. */
    long cpuMillis() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name (field 2) may hold spaces: the fields after it start past the last ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return ticks * 1000 / CLOCK_TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Runs a full collection ({@code jcmd GC.run}), then reads the heap in use: the live set, in KiB. */
    long liveHeapKibAfterFullGc() throws IOException, InterruptedException {
        jcmd("GC.run");
        Matcher m = SPACE_USED.matcher(jcmd("GC.heap_info"));
        long used = 0;
        boolean found = false;
        while (m.find()) {
            used += Long.parseLong(m.group(1));
            found = true;
        }
        if (!found) throw new IOException("jcmd GC.heap_info printed no 'total ...K, used ...K' line");
        return used;
    }

    /** {@code jcmd GC.class_histogram} (a full collection first): instances and bytes per class, biggest first. */
    List<ClassCount> classHistogram() throws IOException, InterruptedException {
        List<ClassCount> rows = new ArrayList<>();
        for (String line : jcmd("GC.class_histogram").split("\n")) {
            Matcher m = HISTO_ROW.matcher(line);
            if (m.find()) rows.add(new ClassCount(m.group(3), Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
        }
        return rows;
    }

    /**
     * Starts a flight recording named {@code load} in the process ({@code jcmd JFR.start}, profile settings plus
     * CPU-time sampling, which sees virtual threads where the execution sampler hardly does).
     */
    void startFlightRecording() throws IOException, InterruptedException {
        jcmd(
                "JFR.start",
                "name=load",
                "settings=profile",
                "jdk.CPUTimeSample#enabled=true",
                "jdk.CPUTimeSample#throttle=2ms");
    }

    /** Stops the recording {@link #startFlightRecording} started and writes it to {@code file}. */
    void stopFlightRecording(Path file) throws IOException, InterruptedException {
        jcmd("JFR.stop", "name=load", "filename=" + file.toAbsolutePath());
    }

    /** One class's row of a heap histogram. */
    record ClassCount(String className, long instances, long bytes) {}

    private String jcmd(String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("jcmd " + String.join(" ", command) + " did not finish within 60 s");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0)
            throw new IOException(
                    "jcmd " + String.join(" ", command) + " failed (" + p.exitValue() + "): " + text.strip());
        return text;
    }

    private long statusField(String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(name))
                    return Long.parseLong(
                            line.substring(name.length()).replace("kB", "").strip());
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The machine's 1-minute load average, from {@code /proc/loadavg}; NaN where there is none. */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
