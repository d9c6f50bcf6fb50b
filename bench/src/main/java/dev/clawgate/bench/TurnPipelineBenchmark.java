package dev.clawgate.bench;

import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.store.InboxState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole turn pipeline with a model that answers at once: from {@code Inbox.accept} (inbox commit) through the
 * bounded dispatcher, history, system prompt, agent loop, sanitising and the transcript commit to the channel's send.
 * What is measured is the gateway's own overhead.
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms512m", "-Xmx512m", "-Dclawgate.log.level=WARN"})
// long warm-up: under load the JIT needs some 10,000 turns before the cost per turn settles
@Warmup(iterations = 5, time = 5)
@Measurement(iterations = 5, time = 5)
public class TurnPipelineBenchmark {
    /**
     * Distinct chat users in the throughput benchmark: more than the default max_in_flight of 8, so the bound is hit.
     */
    public static final int SENDERS = 64;
    /** Turns each sender makes per invocation, one after the other, each after the previous reply. */
    public static final int TURNS_PER_SENDER = 8;

    static final String TEXT = "What is the capital of France? Answer briefly, please.";
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(30);

    @State(Scope.Benchmark)
    public static class Pipeline {
        /** The model asks for the lookup tool on every n-th turn (0: never). */
        @Param("4")
        public int toolEvery;

        InProcessGateway gateway;

        @Setup(Level.Trial)
        public void start() {
            gateway = InProcessGateway.start(toolEvery);
        }

        /** Fails the trial when any turn ended in another state than done: those numbers would not be turns. */
        @TearDown(Level.Trial)
        public void stop() {
            try {
                Map<InboxState, Long> counts = gateway.store().inbox().counts();
                long notDone = counts.entrySet().stream()
                        .filter(e -> e.getKey() != InboxState.DONE)
                        .mapToLong(Map.Entry::getValue)
                        .sum();
                if (notDone > 0) throw new IllegalStateException("turns not done at the end of the trial: " + counts);
            } finally {
                gateway.close();
            }
        }

        public InProcessGateway gateway() {
            return gateway;
        }
    }

    /** (a) One user, one message at a time: the latency of a turn, inbox commit to reply. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public OutboundMessage singleTurn(Pipeline p) throws Exception {
        return p.gateway.turn("solo", TEXT, REPLY_TIMEOUT);
    }

    /**
     * (b) {@value #SENDERS} users at once, each sending its next message when the previous reply arrives (a closed
     * loop, as people chat): turns per second through the bounded dispatcher.
     */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(SENDERS * TURNS_PER_SENDER)
    public int manySenders(Pipeline p) throws Exception {
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> done = new ArrayList<>(SENDERS);
            for (int s = 0; s < SENDERS; s++) {
                String sender = "user-" + s;
                done.add(senders.submit(() -> {
                    int chars = 0;
                    for (int t = 0; t < TURNS_PER_SENDER; t++)
                        chars += p.gateway
                                .turn(sender, TEXT, REPLY_TIMEOUT)
                                .text()
                                .length();
                    return chars;
                }));
            }
            int total = 0;
            for (Future<Integer> f : done) total += f.get();
            return total;
        }
    }
}
