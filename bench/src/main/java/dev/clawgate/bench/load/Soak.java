package dev.clawgate.bench.load;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Soak figures taken while a phase runs: every {@code sampleEvery} replies, RSS and the live heap after a full
 * collection; with {@code histogram}, which classes grew between the first sample and the end.
 */
final class Soak {
    private final LoadPlan plan;
    private final ProcessProbe probe;
    private final ReplyLedger ledger;
    private final long start = System.nanoTime();
    private final List<LoadResult.SoakSample> samples = new ArrayList<>();
    private List<ProcessProbe.ClassCount> firstHistogram;
    private List<String> growth = List.of();
    private int nextAt;
    private int lastAnswered;
    private long lastNanos = start;

    Soak(LoadPlan plan, ProcessProbe probe, ReplyLedger ledger) {
        this.plan = plan;
        this.probe = probe;
        this.ledger = ledger;
        this.nextAt = plan.sampleEvery();
    }

    void poll() throws IOException, InterruptedException {
        if (plan.sampleEvery() == 0 || ledger.answered() < nextAt) return;
        sample();
        while (nextAt <= ledger.answered()) nextAt += plan.sampleEvery();
    }

    private void sample() throws IOException, InterruptedException {
        int answered = ledger.answered();
        long now = System.nanoTime();
        double rate = (answered - lastAnswered) * 1e9 / Math.max(1, now - lastNanos);
        double rss = LoadRun.mib(probe.rssKib());
        if (plan.histogram() && firstHistogram == null) firstHistogram = probe.classHistogram();
        double live = probe.liveHeapKibAfterFullGc() / 1024.0;
        samples.add(
                new LoadResult.SoakSample(answered, (now - start) / 1e9, rss, live, rate, ProcessProbe.loadAverage()));
        lastAnswered = answered;
        lastNanos = System.nanoTime();
    }

    void finish() throws IOException, InterruptedException {
        if (plan.sampleEvery() == 0) return;
        if (samples.isEmpty() || samples.getLast().answered() < ledger.answered()) sample();
        if (firstHistogram != null) growth = growth(firstHistogram, probe.classHistogram());
    }

    List<LoadResult.SoakSample> samples() {
        return List.copyOf(samples);
    }

    List<String> growth() {
        return growth;
    }

    /** The ten classes whose live bytes grew most between two histograms. */
    private static List<String> growth(List<ProcessProbe.ClassCount> before, List<ProcessProbe.ClassCount> after) {
        java.util.Map<String, ProcessProbe.ClassCount> old = new java.util.HashMap<>();
        before.forEach(c -> old.put(c.className(), c));
        return after.stream()
                .map(c -> {
                    ProcessProbe.ClassCount o =
                            old.getOrDefault(c.className(), new ProcessProbe.ClassCount(c.className(), 0, 0));
                    return new ProcessProbe.ClassCount(
                            c.className(), c.instances() - o.instances(), c.bytes() - o.bytes());
                })
                .sorted(Comparator.comparingLong(ProcessProbe.ClassCount::bytes).reversed())
                .limit(10)
                .map(c -> "%s %+d instances, %+.1f KiB".formatted(c.className(), c.instances(), c.bytes() / 1024.0))
                .toList();
    }
}
