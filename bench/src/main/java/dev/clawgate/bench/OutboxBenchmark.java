package dev.clawgate.bench;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.DeliveryOutcome;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.Outbox;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The write-ahead outbox on SQLite (WAL, {@code synchronous=NORMAL}): one delivery intent through
 * intent (insert, committed) → claim (committed before any platform I/O) → send (an instant
 * platform) → ack (sent, with its receipt). Issue 5 aims at 5,000 per second on 2 cores.
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class OutboxBenchmark {

    /** A platform that answers at once: what is measured is the outbox's own bookkeeping. */
    static final class InstantPlatform implements MessageAdapter {
        private final AtomicLong ids = new AtomicLong();

        @Override
        public MessageReceipt send(OutboundMessage message, CancelToken cancel) {
            return MessageReceipt.of("p-" + ids.incrementAndGet());
        }
    }

    @State(Scope.Benchmark)
    public static class Sqlite {
        Path dir;
        Store store;
        Outbox outbox;
        final InstantPlatform platform = new InstantPlatform();
        final AtomicLong turns = new AtomicLong();
        final OutboundTarget target = new OutboundTarget("bench", "default", "chat-1", null, null);

        @Setup(Level.Trial)
        public void open() throws IOException {
            dir = Files.createTempDirectory("clawgate-outbox-bench");
            store = Stores.open(null, dir);
            outbox = new Outbox(store, Clock.systemUTC());
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            store.close();
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    private static DeliveryOutcome oneIntent(Sqlite s) {
        long turn = s.turns.incrementAndGet();
        OutboxEntry entry = s.store.enqueueOutbox(turn, OutboundDraft.send(s.target, "reply " + turn, "k"));
        return s.outbox.deliver(entry, s.platform);
    }

    @Benchmark
    @Threads(1)
    public DeliveryOutcome intentSendAck1Thread(Sqlite s) {
        return oneIntent(s);
    }

    @Benchmark
    @Threads(8)
    public DeliveryOutcome intentSendAck8Threads(Sqlite s) {
        return oneIntent(s);
    }
}
