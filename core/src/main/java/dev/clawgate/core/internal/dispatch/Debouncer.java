package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.internal.command.RuntimeCommand;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.InboxRecord;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batches rapid text messages from one sender in one conversation into one turn (SPEC IN-2).
 *
 * <p>A text waits until its sender has been quiet for the channel's debounce time; every new text restarts the wait. A
 * message with an attachment flushes the waiting texts together with it at once. A control command ({@code /stop},
 * {@code /new}, ...) passes the buffer: its sender's waiting texts are handed on first, as their own batch, then the
 * command alone, at once, so {@code /stop} reaches the dispatcher after the texts it must stop (SPEC DI-5) and
 * {@code /new} after the texts that belong to the conversation it ends. Debounce 0 hands every message on at once. Each
 * batch reaches the sink oldest first, so its last record is the current message that gives the turn its id and reply
 * threading (RunHandle).
 *
 * <p>Bounded: at most {@code maxKeys} conversations wait at once (a new one flushes the oldest) and at most
 * {@code maxBatch} messages per batch (the one that reaches it flushes the batch).
 *
 * <p>Thread-safe. Batches reach the sink in the order they were closed, never while the state lock is held, so a slow
 * sink (a full bus) does not stop texts from being collected. A sink failure is logged, not thrown: the records are
 * committed in the inbox and stay unfinished, so a restart runs them (SPEC IN-4).
 */
public final class Debouncer {
    private static final Logger log = LoggerFactory.getLogger(Debouncer.class);

    public static final int DEFAULT_MAX_KEYS = 10_000;
    public static final int DEFAULT_MAX_BATCH = 50;

    /** Whose texts are batched together: one sender in one conversation and thread. */
    private record Key(SessionKey session, String sender, String threadId) {
        static Key of(InboxRecord r) {
            return new Key(
                    Objects.requireNonNull(r.session(), "record session"),
                    r.message().sender(),
                    r.message().threadId());
        }
    }

    private static final class Batch {
        final List<InboxRecord> records = new ArrayList<>();
        Scheduler.Cancellable timer;
        long generation;
    }

    private final Function<String, Long> debounceMs;
    private final Scheduler scheduler;
    private final Consumer<List<InboxRecord>> sink;
    private final Predicate<InboxRecord> controlCommand;
    private final int maxKeys;
    private final int maxBatch;

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Key, Batch> pending = new LinkedHashMap<>();
    private final ArrayDeque<List<InboxRecord>> closed = new ArrayDeque<>();
    private long generations;
    // held while batches go to the sink, so they arrive in the order they were closed
    private final ReentrantLock emitting = new ReentrantLock();

    /**
     * @param debounceMs the debounce time of a channel in milliseconds; 0 turns it off
     * @param scheduler runs the quiet-period timers
     * @param sink receives each batch, oldest first; runs on the caller's or the scheduler's thread
     */
    public Debouncer(Function<String, Long> debounceMs, Scheduler scheduler, Consumer<List<InboxRecord>> sink) {
        this(debounceMs, scheduler, sink, Debouncer::isRuntimeCommand, DEFAULT_MAX_KEYS, DEFAULT_MAX_BATCH);
    }

    /**
     * @param controlCommand which records are control commands that bypass debouncing
     * @param maxKeys at most this many conversations wait at once
     * @param maxBatch a batch that reaches this many messages is handed on at once
     */
    public Debouncer(
            Function<String, Long> debounceMs,
            Scheduler scheduler,
            Consumer<List<InboxRecord>> sink,
            Predicate<InboxRecord> controlCommand,
            int maxKeys,
            int maxBatch) {
        this.debounceMs = Objects.requireNonNull(debounceMs, "debounceMs");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.controlCommand = Objects.requireNonNull(controlCommand, "controlCommand");
        if (maxKeys < 1) throw new IllegalArgumentException("maxKeys must be at least 1, got " + maxKeys);
        if (maxBatch < 1) throw new IllegalArgumentException("maxBatch must be at least 1, got " + maxBatch);
        this.maxKeys = maxKeys;
        this.maxBatch = maxBatch;
    }

    /** The default test for a control command: the text parses as a runtime command (SPEC RT-1). */
    public static boolean isRuntimeCommand(InboxRecord r) {
        return RuntimeCommand.parse(r.message().text()).isPresent();
    }

    /**
     * Takes a committed record. When this returns, every batch it closed (its own included, when it was handed on at
     * once) has been given to the sink.
     *
     * @throws IllegalArgumentException when the channel's debounce time is missing or negative
     */
    public void offer(InboxRecord r) {
        Objects.requireNonNull(r, "record");
        long ms = debounceFor(r.message().channel());
        Key key = Key.of(r);
        boolean command = controlCommand.test(r);
        boolean closedSome;
        lock.lock();
        try {
            int before = closed.size();
            if (command) {
                Batch open = pending.remove(key);
                if (open != null) {
                    cancelTimer(open);
                    closed.add(List.copyOf(open.records));
                }
                closed.add(List.of(r));
            } else if (ms == 0 || !r.message().attachments().isEmpty()) {
                Batch open = pending.remove(key);
                List<InboxRecord> batch = new ArrayList<>();
                if (open != null) {
                    cancelTimer(open);
                    batch.addAll(open.records);
                }
                batch.add(r);
                closed.add(List.copyOf(batch));
            } else {
                addText(key, r, ms);
            }
            closedSome = closed.size() > before;
        } finally {
            lock.unlock();
        }
        // a text that only joined a batch must not wait behind a slow sink
        if (closedSome) emitClosed();
    }

    /** Hands on every waiting batch now, e.g. at shutdown. */
    public void flushAll() {
        lock.lock();
        try {
            for (Batch b : pending.values()) {
                cancelTimer(b);
                closed.add(List.copyOf(b.records));
            }
            pending.clear();
        } finally {
            lock.unlock();
        }
        emitClosed();
    }

    /** How many conversations have texts waiting. */
    public int pendingKeys() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    /** How many texts are waiting in all batches. */
    public int pendingMessages() {
        lock.lock();
        try {
            return pending.values().stream().mapToInt(b -> b.records.size()).sum();
        } finally {
            lock.unlock();
        }
    }

    private long debounceFor(String channel) {
        Long ms = debounceMs.apply(channel);
        if (ms == null) throw new IllegalArgumentException("no debounce time for channel " + channel);
        if (ms < 0) throw new IllegalArgumentException("debounce time of channel " + channel + " is negative: " + ms);
        return ms;
    }

    private void addText(Key key, InboxRecord r, long ms) {
        Batch open = pending.get(key);
        if (open == null) {
            if (pending.size() >= maxKeys) closeOldest();
            open = new Batch();
            pending.put(key, open);
        }
        open.records.add(r);
        if (open.records.size() >= maxBatch) {
            closeBatch(key, open);
            return;
        }
        cancelTimer(open);
        long generation = ++generations;
        open.generation = generation;
        try {
            open.timer = scheduler.schedule(Duration.ofMillis(ms), () -> expire(key, generation));
        } catch (RuntimeException e) {
            log.warn("could not schedule the debounce timer ({}); handing the batch on now", e.toString());
            closeBatch(key, open);
        }
    }

    private void closeOldest() {
        Iterator<Map.Entry<Key, Batch>> oldest = pending.entrySet().iterator();
        Map.Entry<Key, Batch> e = oldest.next();
        oldest.remove();
        cancelTimer(e.getValue());
        closed.add(List.copyOf(e.getValue().records));
        log.debug("debounce holds {} conversations; handed on the oldest early", maxKeys);
    }

    private void closeBatch(Key key, Batch b) {
        pending.remove(key);
        cancelTimer(b);
        closed.add(List.copyOf(b.records));
    }

    private void expire(Key key, long generation) {
        lock.lock();
        try {
            Batch b = pending.get(key);
            // a newer text restarted the wait, or the batch was flushed meanwhile: this timer is stale
            if (b == null || b.generation != generation) return;
            pending.remove(key);
            closed.add(List.copyOf(b.records));
        } finally {
            lock.unlock();
        }
        emitClosed();
    }

    private static void cancelTimer(Batch b) {
        if (b.timer != null) {
            b.timer.cancel();
            b.timer = null;
        }
    }

    private void emitClosed() {
        emitting.lock();
        try {
            while (true) {
                List<InboxRecord> batch;
                lock.lock();
                try {
                    batch = closed.poll();
                } finally {
                    lock.unlock();
                }
                if (batch == null) return;
                try {
                    sink.accept(batch);
                } catch (RuntimeException e) {
                    log.error(
                            "debounced batch {} was not handed on; its records stay unfinished and run after a restart",
                            batch.stream().map(InboxRecord::id).toList(),
                            e);
                }
            }
        } finally {
            emitting.unlock();
        }
    }
}
