package dev.clawgate.core.inspect;

import dev.clawgate.core.config.InspectorSettings;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records turns (SPEC OP-8): {@link #begin} binds a {@link TurnTrail} to the turn's thread, the stages add phases to it
 * in memory, and {@link #end} writes the whole turn as one row. A dropped duplicate delivery is written at once with
 * its dedupe decision. Recording never fails a turn: a store error is logged and the trace is lost. The settings are
 * read at each turn, so a config reload turns it on or off.
 */
public final class TurnInspector {
    private static final Logger log = LoggerFactory.getLogger(TurnInspector.class);
    /** Dedupe keys remembered to name the record a duplicate repeats: as many as SPEC IN-1 holds in memory. */
    static final int REMEMBERED_KEYS = 5_000;

    /** Turns waiting for the writer at most (SPEC OP-7): more are dropped, never waited for. */
    static final int QUEUE = 4_096;

    static final int BATCH = 256;

    private final TurnBook book;
    private final java.util.concurrent.BlockingQueue<TurnTrace> queue =
            new java.util.concurrent.ArrayBlockingQueue<>(QUEUE);
    private final java.util.concurrent.atomic.AtomicLong lost = new java.util.concurrent.atomic.AtomicLong();
    private volatile Thread writer;
    private final Supplier<InspectorSettings> settings;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Long> inboxOfKey = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > REMEMBERED_KEYS;
        }
    };

    public TurnInspector(TurnBook book, Supplier<InspectorSettings> settings, Clock clock) {
        this.book = book;
        this.settings = settings;
        this.clock = clock;
    }

    /** The recording of one turn, from {@link #begin} to {@link #end}. */
    public static final class Recording {
        static final Recording NONE = new Recording(null, TurnTrail.OFF, null, 0);
        private final InboxRecord current;
        private final TurnTrail trail;
        private final Instant startedAt;
        private final long inboxId;

        Recording(InboxRecord current, TurnTrail trail, Instant startedAt, long inboxId) {
            this.current = current;
            this.trail = trail;
            this.startedAt = startedAt;
            this.inboxId = inboxId;
        }

        public TurnTrail trail() {
            return trail;
        }
    }

    /**
     * Starts recording the turn that answers {@code batch} (its last record) on this thread: the inbound record, the
     * queue decision that made the batch and the session key are its first phases.
     */
    public Recording begin(List<InboxRecord> batch, String queueMode, int droppedFromQueue) {
        if (batch.isEmpty() || !settings.get().enabled()) return Recording.NONE;
        InboxRecord current = batch.getLast();
        TurnTrail trail = new TurnTrail(true, settings.get().keepPrompts(), System.nanoTime());
        trail.bind();
        Instant now = clock.instant();
        InboundMessage m = current.message();
        trail.mark("inbound", () -> inbound(current.id(), m).put("attempt", current.attempts()));
        trail.mark(
                "dedupe",
                () -> Detail.of()
                        .put(
                                "decision",
                                m.id() == null || m.id().isBlank() ? "no platform id: not deduplicated" : "new")
                        .put("message_id", m.id()));
        trail.mark(
                "queue",
                () -> Detail.of()
                        .put("mode", queueMode)
                        .put("batch", batch.size())
                        .put("merged", batch.size() - 1)
                        .put("dropped", droppedFromQueue)
                        .put(
                                "waited_ms",
                                Math.max(
                                        0,
                                        Duration.between(current.recordedAt(), now)
                                                .toMillis())));
        trail.mark("session", () -> Detail.of().put("key", current.session().display()));
        return new Recording(current, trail, now, current.id());
    }

    /** Ends the recording and writes the turn once; the trail leaves the thread. */
    public void end(Recording r, String outcome) {
        if (r == Recording.NONE) return;
        TurnTrail.unbind();
        TurnTrail t = r.trail;
        if (t.dropped() > 0) t.mark("truncated", () -> Detail.of().put("phases_not_kept", t.dropped()));
        t.mark("end", () -> Detail.of().put("outcome", outcome));
        Duration took = Duration.ofNanos(System.nanoTime() - t.startNanos());
        TurnSummary summary =
                new TurnSummary(0, r.inboxId, r.current.session(), r.startedAt, took, outcome, preview(r.current));
        write(new TurnTrace(summary, t.phases(), t.keptPrompt()));
    }

    /** Remembers which inbox record a dedupe key made, so a later duplicate can name it. */
    public void recorded(String dedupeKey, long inboxId) {
        if (dedupeKey == null || !settings.get().enabled()) return;
        lock.lock();
        try {
            inboxOfKey.put(dedupeKey, inboxId);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A platform delivered a recorded message again and dedupe dropped it (SPEC IN-1): written at once as a turn of
     * outcome {@link TurnSummary#DUPLICATE}, under the inbox id it repeats when this node still remembers it.
     */
    public void duplicate(InboundMessage m, SessionKey session, String dedupeKey) {
        if (!settings.get().enabled()) return;
        long original;
        lock.lock();
        try {
            original = inboxOfKey.getOrDefault(dedupeKey, 0L);
        } finally {
            lock.unlock();
        }
        String detail = Detail.of()
                .put("decision", "duplicate: dropped before any run")
                .put("message_id", m.id())
                .put("repeats_inbox_id", original)
                .toString();
        List<TurnPhase> phases = List.of(
                new TurnPhase(
                        "inbound",
                        Duration.ZERO,
                        Duration.ZERO,
                        inbound(original, m).toString()),
                new TurnPhase("dedupe", Duration.ZERO, Duration.ZERO, detail));
        TurnSummary summary =
                new TurnSummary(0, original, session, clock.instant(), Duration.ZERO, TurnSummary.DUPLICATE, m.text());
        write(new TurnTrace(summary, phases, null));
    }

    /** Deletes turns older than {@code inspector.retention}; for the hourly maintenance job. */
    public static int prune(TurnBook book, InspectorSettings settings, Instant now) {
        return book.prune(now.minus(settings.retention()));
    }

    private void write(TurnTrace trace) {
        try {
            book.record(trace);
        } catch (StoreException | IllegalArgumentException e) {
            log.warn(
                    "turn inspector: could not record a turn of {}: {}",
                    trace.summary().session(),
                    e.toString());
        }
    }

    private static Detail inbound(long inboxId, InboundMessage m) {
        return Detail.of()
                .put("inbox_id", inboxId)
                .put("channel", m.channel())
                .put("account", m.account())
                .put("message_id", m.id())
                .put("sender", m.sender())
                .put("chat", m.replyTarget())
                .put("chat_type", m.chatType().name().toLowerCase(java.util.Locale.ROOT))
                .put("chars", m.text().length())
                .put("attachments", m.attachments().size());
    }

    private static String preview(InboxRecord r) {
        return r.message().text().replace('\n', ' ');
    }
}
