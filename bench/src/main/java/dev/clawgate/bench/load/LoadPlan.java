package dev.clawgate.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One load run, as the driver's command line gave it.
 *
 * @param launch how the bot under test starts (gateway jar, gateway classpath, echo bot)
 * @param jvmArgs extra options for the bot's JVM (e.g. {@code -Xmx256m}); none by default, as {@code ./clawgate} runs
 *     it
 * @param extraToml TOML appended to the gateway's config (e.g. a {@code [memory]} table); empty for none
 * @param messages messages in the measured phase
 * @param users distinct Telegram users (each in their own private chat)
 * @param openLoopRate messages per second for an open-loop phase; 0 for closed loop (each user sends when answered)
 * @param warmup closed-loop messages sent (and checked) before the measured phase, to warm the JIT
 * @param modelDelay how long the fake model thinks before each answer
 * @param idle how long the bot idles after it is ready before its idle RSS is read
 * @param timeout a phase ends unfinished when no reply came for this long
 * @param settle how long to keep listening after the last reply, for late duplicates
 * @param sampleEvery soak: live heap after a full GC and RSS every this many answered messages; 0 for none
 * @param histogram soak: compare class histograms at the first sample and at the end
 * @param jfr record the measured phase with Flight Recorder into this file; null for none
 * @param workDir where the config, the store and the logs go (emptied first)
 * @param label the run's name in the report
 * @param kills when the measured phase SIGKILLs and restarts the gateway (a kill test, SPEC OUT-7, OUT-12); none for a
 *     plain run
 * @param shortMessages messages of under 20 characters ("#12 hi u3"), which memory neither auto-saves nor embeds
 *     (ME-1); otherwise about 60 characters, long enough to be auto-saved and recalled by meaning
 */
record LoadPlan(
        ChildJvm.Launch launch,
        List<String> jvmArgs,
        String extraToml,
        int messages,
        int users,
        double openLoopRate,
        int warmup,
        Duration modelDelay,
        Duration idle,
        Duration timeout,
        Duration settle,
        int sampleEvery,
        boolean histogram,
        Path jfr,
        Path workDir,
        String label,
        KillSchedule kills,
        boolean shortMessages) {
    /** A plan with the default messages, long enough to be auto-saved and recalled. */
    LoadPlan(
            ChildJvm.Launch launch,
            List<String> jvmArgs,
            String extraToml,
            int messages,
            int users,
            double openLoopRate,
            int warmup,
            Duration modelDelay,
            Duration idle,
            Duration timeout,
            Duration settle,
            int sampleEvery,
            boolean histogram,
            Path jfr,
            Path workDir,
            String label,
            KillSchedule kills) {
        this(
                launch,
                jvmArgs,
                extraToml,
                messages,
                users,
                openLoopRate,
                warmup,
                modelDelay,
                idle,
                timeout,
                settle,
                sampleEvery,
                histogram,
                jfr,
                workDir,
                label,
                kills,
                false);
    }

    LoadPlan {
        jvmArgs = List.copyOf(jvmArgs);
        if (kills.kills() > 0) {
            // a user with two messages queued gets one steered run and one reply for both (SPEC DI-3): one at a time
            if (openLoopRate > 0) throw new IllegalArgumentException("--kills needs the closed loop (--rate 0)");
            if (launch instanceof ChildJvm.Launch.Echo)
                throw new IllegalArgumentException("--kills needs the gateway: the echo bot keeps no store");
            if (sampleEvery > 0 || jfr != null)
                throw new IllegalArgumentException("--kills goes with neither --sample-every nor --jfr");
        }
        if (messages < 1) throw new IllegalArgumentException("--messages must be at least 1");
        if (users < 1) throw new IllegalArgumentException("--users must be at least 1");
        if (openLoopRate < 0) throw new IllegalArgumentException("--rate must not be negative");
        if (warmup < 0) throw new IllegalArgumentException("--warmup must not be negative");
        if (sampleEvery < 0) throw new IllegalArgumentException("--sample-every must not be negative");
    }

    boolean openLoop() {
        return openLoopRate > 0;
    }

    boolean killTest() {
        return kills.kills() > 0;
    }

    boolean echo() {
        return launch instanceof ChildJvm.Launch.Echo;
    }
}
