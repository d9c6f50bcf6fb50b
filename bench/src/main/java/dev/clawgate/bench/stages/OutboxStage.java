package dev.clawgate.bench.stages;

import dev.clawgate.bench.BenchChannel;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.outbound.Outbox;
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
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The outbox's delivery of one pending reply (SPEC OUT-5, OUT-8): {@link Outbox#deliver} claims it ({@code pending ->
 * sending}, committed before any platform I/O), sends its one payload to a platform that answers at once, and records
 * {@code sent} with the receipt, which also goes on the turn's assistant message in the transcript. Two write
 * transactions per operation; the turn commits that wrote the intents are not measured ({@code OutboxBenchmark} has the
 * whole path). The trial seeds {@link #pending} turns ended with their reply pending, over {@link #SESSIONS} chats,
 * snapshots the database and reads the pending entries once; every iteration restores that snapshot (the entries are
 * pending again, and the outbox never grows past it) and hands the same entries out again, so the iteration's setup
 * allocates almost nothing that {@code -prof gc} would count against the operations. An operation that finds no pending
 * entry left fails the run: raise {@link #pending} for longer iterations.
 */
@State(Scope.Benchmark)
public class OutboxStage {
    static final int SESSIONS = 64;

    /** Pending replies at the start of each iteration: more than one iteration of 1 s can deliver. */
    @Param("20000")
    public int pending;

    public TempStore db;
    public Outbox outbox;
    public final InstantPlatform platform = new InstantPlatform();
    /** The seeded entries as read at the trial's start, oldest first: what every restored iteration holds pending. */
    private List<OutboxEntry> entries;

    private int nextEntry;

    /** A platform that answers at once: what is measured is the outbox's own bookkeeping. */
    public static final class InstantPlatform implements MessageAdapter {
        private long ids;

        @Override
        public MessageReceipt send(OutboundMessage message, CancelToken cancel) {
            return MessageReceipt.of("p-" + ++ids);
        }
    }

    @Setup(Level.Trial)
    public void seed() throws Exception {
        db = TempStore.open("outbox");
        Store store = db.store();
        // eight writers: the store's group commit makes seeding 20,000 turns take seconds, not a minute
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int i = writer; i < pending; i += 8) endTurn(store, i);
                }));
            }
            for (Future<?> f : writers) f.get();
        }
        db.snapshot();
        entries = db.store().outbox().byState(OutboxState.PENDING);
        if (entries.size() != pending)
            throw new IllegalStateException("the seed holds " + entries.size() + " pending entries, not " + pending);
    }

    @Setup(Level.Iteration)
    public void restore() {
        db.restore();
        outbox = new Outbox(db.store(), Clock.systemUTC());
        nextEntry = 0;
    }

    @TearDown(Level.Trial)
    public void close() {
        db.close();
    }

    /** The next pending entry, oldest first. */
    public OutboxEntry next() {
        if (nextEntry == entries.size())
            throw new IllegalStateException("all " + pending + " pending entries were delivered within one iteration;"
                    + " raise -p pending or shorten the iterations");
        return entries.get(nextEntry++);
    }

    /** A turn as it ends: its message recorded, then the reply committed with the turn as a pending intent. */
    private static void endTurn(Store store, int i) {
        String chat = "user-" + i % SESSIONS;
        InboundMessage m = InboundMessage.direct(BenchChannel.NAME, "m-" + i, chat, "question " + i);
        InboxRecord turn = store.inbox()
                .record(m, SessionKey.of(m), null, InboundStage.DEDUPE_TTL)
                .orElseThrow();
        store.transcripts().appendUserMessage(turn.session(), turn.id(), m.text());
        String text = "Here is the answer to question " + i + ", short as most replies are.";
        store.outbox()
                .completeTurnWithReply(
                        turn.session(),
                        turn.id(),
                        text,
                        InboxState.DONE,
                        OutboundDraft.of(OutboundTarget.replyTo(m), text, OutboundMessage.Kind.FINAL))
                .orElseThrow();
    }
}
