package dev.clawgate.bench.load;

import java.util.List;

/**
 * What one load run measured. Times in milliseconds, memory in MiB, {@code NaN} or -1 where a figure was not taken.
 *
 * @param startToFirstPollMs process start to the bot's first {@code getUpdates} arriving at the fake
 * @param startToReadyMs process start to {@code /readyz} answering 200 (the echo bot: its first poll)
 * @param idleRssMib resident memory after start, idle, before any message
 * @param peakRssMib the highest resident memory of the whole run (VmHWM)
 * @param endRssMib resident memory at the end
 * @param cpuMsPerMessage the bot's CPU time (user + system) in the measured phase, per message
 * @param modelDelayMs how long the fake model thought per answer: subtracted for the gateway-added latency
 * @param maxSendLagMs open loop: how far the sender fell behind its schedule at worst
 * @param loadBefore the machine's 1-minute load average before the measured phase
 * @param loadAfter and after it
 * @param audit for messages without exactly one reply: what the gateway's store says about them
 * @param kills a kill test's tally; null for a plain run
 */
record LoadResult(
        String label,
        String bot,
        String mode,
        int messages,
        int users,
        double rate,
        int warmup,
        ReplyLedger.Outcome warmupOutcome,
        ReplyLedger.Outcome outcome,
        double startToFirstPollMs,
        double startToReadyMs,
        double idleRssMib,
        double peakRssMib,
        double endRssMib,
        double cpuMsPerMessage,
        double modelDelayMs,
        double maxSendLagMs,
        double loadBefore,
        double loadAfter,
        List<String> jvmArgs,
        List<SoakSample> samples,
        List<String> heapGrowth,
        List<String> audit,
        KillTally kills) {

    /** A soak sample: after {@code answered} replies of the measured phase, at {@code elapsedS}. */
    record SoakSample(
            int answered, double elapsedS, double rssMib, double liveHeapMib, double repliesPerSecond, double load) {}

    LoadResult withAudit(List<String> lines) {
        return new LoadResult(
                label,
                bot,
                mode,
                messages,
                users,
                rate,
                warmup,
                warmupOutcome,
                outcome,
                startToFirstPollMs,
                startToReadyMs,
                idleRssMib,
                peakRssMib,
                endRssMib,
                cpuMsPerMessage,
                modelDelayMs,
                maxSendLagMs,
                loadBefore,
                loadAfter,
                jvmArgs,
                samples,
                heapGrowth,
                List.copyOf(lines),
                kills);
    }

    LoadResult withKills(KillTally tally) {
        return new LoadResult(
                label,
                bot,
                mode,
                messages,
                users,
                rate,
                warmup,
                warmupOutcome,
                outcome,
                startToFirstPollMs,
                startToReadyMs,
                idleRssMib,
                peakRssMib,
                endRssMib,
                cpuMsPerMessage,
                modelDelayMs,
                maxSendLagMs,
                loadBefore,
                loadAfter,
                jvmArgs,
                samples,
                heapGrowth,
                audit,
                tally);
    }

    /**
     * Every message answered exactly once; in a kill test, none answered twice and every one without a reply listed by
     * the gateway (SPEC OUT-7, OUT-12).
     */
    boolean passed() {
        boolean measured = kills == null ? outcome.everyMessageAnsweredOnce() : kills.passed();
        return measured && (warmupOutcome == null || warmupOutcome.everyMessageAnsweredOnce());
    }
}
