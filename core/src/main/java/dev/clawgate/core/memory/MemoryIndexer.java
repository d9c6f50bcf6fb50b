package dev.clawgate.core.memory;

import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.EmbeddingException;
import dev.clawgate.core.store.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes memories' vectors, always off the reply path (SPEC ME-5, ME-6). {@link #indexPending} embeds, in batches of
 * {@code batch}, every entry with no vector of the current model: new entries, entries whose content changed, and
 * entries embedded by another model (so a model change re-embeds them all). The consolidation worker calls it after
 * each turn; its own thread back-fills at start and then every {@code poll}, for entries stored some other way (the
 * memory tools, consolidation off). The work is resumable: what is done is in the store, so a restart goes on where it
 * stopped. Between batches it rests as long as the batch took, so a back-fill takes at most half a core from turns.
 */
public final class MemoryIndexer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MemoryIndexer.class);

    private final MemoryVectors vectors;
    private final Embedder embedder;
    private final int batch;
    private final Duration poll;
    private final Function<String, Optional<float[]>> known;
    private final ReentrantLock working = new ReentrantLock();
    private final ReentrantLock wakeLock = new ReentrantLock();
    private final Condition woken = wakeLock.newCondition();
    private final AtomicLong embedded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong reused = new AtomicLong();
    private volatile boolean wake;
    private volatile boolean closed;
    private volatile String lastError;
    private Thread thread;

    public MemoryIndexer(MemoryVectors vectors, Embedder embedder, int batch, Duration poll) {
        this(vectors, embedder, batch, poll, text -> Optional.empty());
    }

    /**
     * As above; {@code known} gives the unit vector of a text this embedder embedded lately (a turn's query, which an
     * auto-saved message repeats), so the indexer takes it instead of running the model again.
     */
    public MemoryIndexer(
            MemoryVectors vectors,
            Embedder embedder,
            int batch,
            Duration poll,
            Function<String, Optional<float[]>> known) {
        if (batch < 1) throw new IllegalArgumentException("batch must be at least 1, got " + batch);
        this.vectors = vectors;
        this.embedder = embedder;
        this.batch = batch;
        this.poll = poll;
        this.known = known;
    }

    /**
     * What the indexer did since start, and the last failure, if any; {@code reused} of the {@code embedded} vectors
     * were a query's, not computed again.
     */
    public record Stats(long embedded, long failed, String lastError, long reused) {}

    public MemoryIndexer start() {
        thread = Thread.ofVirtual().name("memory-indexer").start(this::loop);
        return this;
    }

    public Stats stats() {
        return new Stats(embedded.get(), failed.get(), lastError, reused.get());
    }

    /** How many entries hold a vector of the current model (the back-fill's progress, for {@code doctor}). */
    public MemoryVectors.Progress progress() {
        return vectors.progress(embedder.modelId());
    }

    /** Asks the indexer's thread to look for new entries now. */
    public void wake() {
        wakeLock.lock();
        try {
            wake = true;
            woken.signalAll();
        } finally {
            wakeLock.unlock();
        }
    }

    /**
     * Embeds every pending entry, batch by batch; returns how many vectors were kept. When another thread is already at
     * it, returns 0 at once: that pass reaches the new entries too (it walks ids upwards).
     */
    public int indexPending() {
        if (!working.tryLock()) return 0;
        try {
            int kept = 0;
            long after = 0;
            while (!closed) {
                List<MemoryVectors.Pending> todo = vectors.pending(embedder.modelId(), after, batch);
                if (todo.isEmpty()) break;
                long started = System.nanoTime();
                kept += embed(todo);
                after = todo.getLast().id();
                if (todo.size() < batch) break;
                rest(System.nanoTime() - started);
            }
            return kept;
        } finally {
            working.unlock();
        }
    }

    private int embed(List<MemoryVectors.Pending> todo) {
        float[][] vs = new float[todo.size()][];
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < todo.size(); i++) {
            vs[i] = known.apply(todo.get(i).content()).orElse(null);
            if (vs[i] == null) missing.add(i);
        }
        if (!missing.isEmpty()) {
            List<float[]> computed;
            try {
                computed = embedder.embedAll(
                        missing.stream().map(i -> todo.get(i).content()).toList());
            } catch (EmbeddingException | RuntimeException e) {
                failed.addAndGet(missing.size());
                lastError = e.getMessage();
                log.warn("memory indexer: {} memories could not be embedded: {}", missing.size(), e.getMessage());
                computed = null;
            }
            for (int j = 0; j < missing.size(); j++)
                vs[missing.get(j)] = computed == null ? null : Vectors.unit(computed.get(j));
        }
        int kept = 0;
        int keptReused = 0;
        for (int i = 0; i < todo.size(); i++) {
            MemoryVectors.Pending p = todo.get(i);
            if (vs[i] == null || !vectors.put(p.id(), p.contentHash(), embedder.modelId(), vs[i])) continue;
            kept++;
            if (!missing.contains(i)) keptReused++;
        }
        embedded.addAndGet(kept);
        reused.addAndGet(keptReused);
        return kept;
    }

    private void rest(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(Math.min(nanos, TimeUnit.SECONDS.toNanos(1)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    private void loop() {
        boolean first = true;
        while (!closed) {
            try {
                int n = indexPending();
                if (first && n > 0) log.info("memory indexer: back-filled {} vectors ({})", n, embedder.modelId());
                first = false;
            } catch (StoreException e) {
                lastError = e.getMessage();
                log.warn("memory indexer: the store failed; trying again in {}: {}", poll, e.getMessage());
            }
            wakeLock.lock();
            try {
                if (!wake && !closed) woken.await(poll.toMillis(), TimeUnit.MILLISECONDS);
                wake = false;
            } catch (InterruptedException e) {
                return;
            } finally {
                wakeLock.unlock();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        wake();
        if (thread == null) return;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
