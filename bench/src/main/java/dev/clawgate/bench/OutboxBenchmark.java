package dev.clawgate.bench;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The write-ahead outbox on SQLite (WAL, {@code synchronous=NORMAL}), through the production path of a turn's reply
 * (SPEC OUT-5, IN-4): the turn commit ({@code completeTurnWithReply}: the inbox record done, the assistant message and
 * the delivery intent in one transaction) → claim ({@code pending → sending}, committed before any platform I/O) → send
 * (a platform that answers at once) → ack ({@code sent} with its receipt, also written to the transcript). Three write
 * transactions per reply; concurrent senders share commits (the store's group commit). The inbox records the turns end
 * are recorded before each iteration, outside the measurement. Issue 5 aims at 5,000 per second on 2 cores.
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-Dclawgate.log.level=WARN"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class OutboxBenchmark {
    /** The turns are spread over this many conversations, as a busy gateway's are. */
    static final int SESSIONS = 64;

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
        final AtomicLong received = new AtomicLong();
        final ConcurrentLinkedQueue<InboxRecord> ready = new ConcurrentLinkedQueue<>();
        /**
         * Operations that found no recorded turn ready and recorded one themselves (timed): must stay 0 for an honest
         * number.
         */
        final AtomicLong starved = new AtomicLong();
        /**
         * Inbox records waiting for their turn to end, topped up before each iteration: more than one iteration can
         * use.
         */
        @Param("60000")
        public int readyPerIteration;

        @Setup(Level.Trial)
        public void open() throws IOException {
            dir = Files.createTempDirectory("clawgate-outbox-bench");
            store = Stores.open(null, dir);
            outbox = new Outbox(store, Clock.systemUTC());
        }

        /**
         * Records inbox messages (committed, as the inbox does) until {@link #readyPerIteration} wait; several writers
         * at once.
         */
        @Setup(Level.Iteration)
        public void recordTurns() throws Exception {
            int missing = readyPerIteration - ready.size();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<?>> writers = new ArrayList<>();
                for (int w = 0; w < 16; w++) {
                    int share = missing / 16 + (w < missing % 16 ? 1 : 0);
                    writers.add(pool.submit(() -> {
                        for (int i = 0; i < share; i++) ready.add(recordOne(this));
                    }));
                }
                for (Future<?> f : writers) f.get();
            }
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            store.close();
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
            if (starved.get() > 0)
                throw new IllegalStateException(
                        starved.get() + " operations recorded their own turn; raise readyPerIteration");
        }
    }

    static InboxRecord recordOne(Sqlite s) {
        long n = s.received.incrementAndGet();
        String chat = "chat-" + n % SESSIONS;
        InboundMessage m = new InboundMessage(
                "m-" + n,
                "bench",
                "default",
                chat,
                null,
                chat,
                null,
                null,
                ChatType.DIRECT,
                true,
                Instant.now(),
                "question " + n,
                List.of(),
                null);
        return s.store.inbox().record(m, SessionKey.of(m), null, Duration.ZERO).orElseThrow();
    }

    /** One turn's reply through its whole durable path: committed with the turn, claimed, sent, acknowledged. */
    static DeliveryOutcome oneReply(Sqlite s) {
        InboxRecord turn = s.ready.poll();
        if (turn == null) {
            s.starved.incrementAndGet();
            turn = recordOne(s);
        }
        String text = "reply to " + turn.message().id();
        OutboxEntry entry = s.store
                .outbox()
                .completeTurnWithReply(
                        turn.session(),
                        turn.id(),
                        text,
                        InboxState.DONE,
                        OutboundDraft.of(OutboundTarget.replyTo(turn.message()), text, OutboundMessage.Kind.FINAL))
                .orElseThrow();
        return s.outbox.deliver(entry, s.platform);
    }

    @Benchmark
    @Threads(1)
    public DeliveryOutcome turnCommitSendAck1Thread(Sqlite s) {
        return oneReply(s);
    }

    @Benchmark
    @Threads(8)
    public DeliveryOutcome turnCommitSendAck8Threads(Sqlite s) {
        return oneReply(s);
    }
}
