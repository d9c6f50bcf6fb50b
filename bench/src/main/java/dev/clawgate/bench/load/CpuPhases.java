package dev.clawgate.bench.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * The gateway's CPU per message split by phase of the road (issue 27), from a load run's Flight Recording
 * ({@code LoadDriver --jfr FILE}): each {@code jdk.CPUTimeSample} (CPU-time sampling, which sees virtual threads and
 * time spent in native code such as SQLite and ONNX Runtime) goes to the innermost phase its stack passes through, and
 * a phase's share of the samples times the run's CPU per message gives its milliseconds. GC and JIT threads are not
 * sampled, so their CPU is spread over the phases in proportion (a phase that allocates more is charged too little).
 *
 * <pre>java -cp ... dev.clawgate.bench.load.CpuPhases FILE.jfr CPU_MS_PER_MESSAGE</pre>
 */
public final class CpuPhases {
    /** Phase markers, a frame's class and method prefix each; the innermost marker on a stack wins. */
    static final List<Phase> PHASES = List.of(
            new Phase("embedding the recall query (ONNX)", "dev.clawgate.core.memory.QueryEmbeddings.of"),
            new Phase("embedding new memories (indexer)", "dev.clawgate.core.memory.MemoryIndexer.embed"),
            new Phase("memory indexer bookkeeping", "dev.clawgate.core.memory.MemoryIndexer.indexPending"),
            new Phase("recall: keyword half (FTS5)", "dev.clawgate.store.internal.JdbcMemory.recall"),
            new Phase("recall: vector half", "dev.clawgate.store.internal.JdbcMemoryVectors.nearest"),
            new Phase("auto-save of the message", "dev.clawgate.core.internal.memory.AutoSave.save"),
            new Phase("consolidation (dedupe)", "dev.clawgate.core.internal.memory.Consolidation.work"),
            new Phase("history load and prompt build", "dev.clawgate.core.internal.turn.ConversationBuilder.build"),
            new Phase("model call (HTTP, JSON)", "dev.clawgate.core.internal.agent.ModelCaller.call"),
            new Phase("turn end: reply + outbox intent", "dev.clawgate.core.internal.turn.FinalReplies.commitAndSend"),
            new Phase("outbox delivery (claim, send, update)", "dev.clawgate.core.internal.outbound.Outbox.deliver"),
            new Phase(
                    "outbox delivery (claim, send, update)", "dev.clawgate.core.internal.outbound.Outbox.sendClaimed"),
            new Phase("turn inspector", "dev.clawgate.core.inspect.TurnInspector"),
            new Phase("receipts and run settling", "dev.clawgate.core.internal.dispatch.Receipts"),
            new Phase("dispatch", "dev.clawgate.core.internal.dispatch.Dispatcher"),
            new Phase("inbound: record in the inbox", "dev.clawgate.core.internal.inbound.Inbox"),
            new Phase("Telegram long poll", "dev.clawgate.channel.telegram.PollingLoop"),
            new Phase("rest of the turn", "dev.clawgate.core.internal.turn.TurnPipeline.run"));

    record Phase(String name, String prefix) {}

    private CpuPhases() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: CpuPhases FILE.jfr CPU_MS_PER_MESSAGE");
            System.exit(2);
        }
        Map<String, Long> counts = count(Path.of(args[0]));
        System.out.print(table(counts, Double.parseDouble(args[1])));
    }

    /** Samples per phase, in {@link #PHASES} order, then "HTTP client threads" and "other". */
    static Map<String, Long> count(Path jfr) throws IOException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Phase p : PHASES) counts.putIfAbsent(p.name(), 0L);
        counts.put("JDK HTTP client threads", 0L);
        counts.put("other", 0L);
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (!e.getEventType().getName().equals("jdk.CPUTimeSample")) continue;
                counts.merge(phaseOf(e), 1L, Long::sum);
            }
        }
        return counts;
    }

    static String phaseOf(RecordedEvent e) {
        RecordedStackTrace stack = e.getStackTrace();
        if (stack != null) {
            // frames run innermost first: the first marker met is the innermost
            for (RecordedFrame f : stack.getFrames()) {
                if (!f.isJavaFrame()) continue;
                String name =
                        f.getMethod().getType().getName() + "." + f.getMethod().getName();
                for (Phase p : PHASES) if (name.startsWith(p.prefix())) return p.name();
            }
        }
        RecordedThread t = e.hasField("eventThread") ? e.getThread("eventThread") : null;
        String thread = t == null || t.getJavaName() == null ? "" : t.getJavaName();
        return thread.startsWith("HttpClient-") || thread.startsWith("http-client-")
                ? "JDK HTTP client threads"
                : "other";
    }

    static String table(Map<String, Long> counts, double cpuMsPerMessage) {
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder out = new StringBuilder("| phase | share of samples | CPU ms per message |\n|---|---|---|\n");
        counts.entrySet().stream()
                .filter(c -> c.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(c -> {
                    double share = total == 0 ? 0 : (double) c.getValue() / total;
                    out.append(String.format(
                            Locale.ROOT,
                            "| %s | %.1f %% | %.2f |%n",
                            c.getKey(),
                            share * 100,
                            share * cpuMsPerMessage));
                });
        out.append(
                String.format(Locale.ROOT, "| all sampled (%d samples) | 100 %% | %.2f |%n", total, cpuMsPerMessage));
        return out.toString();
    }
}
