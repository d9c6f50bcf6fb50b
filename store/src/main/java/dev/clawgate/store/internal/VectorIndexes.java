package dev.clawgate.store.internal;

import com.github.jelmerk.hnswlib.core.DistanceFunctions;
import com.github.jelmerk.hnswlib.core.Item;
import com.github.jelmerk.hnswlib.core.SearchResult;
import com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;
import com.github.jelmerk.hnswlib.core.hnsw.SizeLimitExceededException;
import dev.clawgate.core.memory.MemoryVectors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The approximate nearest-neighbour indexes of memory recall (SPEC ME-5): one HNSW graph (jelmerk's hnswlib) per scope
 * and model, for the scopes that hold at least {@code memory.ann_threshold} vectors. An index is built from the stored
 * vectors in the background (recall scans exactly until it is ready), then kept up to date as vectors are written
 * through this process; entries forgotten or changed are dropped from it when a search meets them. It is rebuilt when
 * it is older than {@link #REBUILD_AFTER}, which takes in vectors another process wrote (a cluster node, the CLI).
 * Indexes live in the heap (about {@link #bytesPerVector} each): they may take a third of the maximum heap in all
 * ({@link #heapShare}); past it the least recently searched is dropped, and a scope whose index alone would not fit is
 * scanned (a build must never run the gateway out of heap). Thread-safe.
 */
final class VectorIndexes {
    private static final Logger LOG = LoggerFactory.getLogger(VectorIndexes.class);

    /** The share of the maximum heap all indexes together may take. */
    static final int HEAP_SHARE_DIVISOR = 3;
    /** A build costs minutes of CPU at 100,000 vectors (bench/RESULTS.md): rare enough to stay a small share. */
    static final Duration REBUILD_AFTER = Duration.ofHours(6);

    private static final int M = 16;
    private static final int EF_CONSTRUCTION = 100;
    private static final int EF = 200;

    record Key(String scope, String modelId) {}

    /** A stored vector, unit length. */
    record Row(long id, float[] vector) {}

    record Vec(Long id, float[] vector, long version) implements Item<Long, float[]> {
        @Override
        public int dimensions() {
            return vector.length;
        }
    }

    /** One scope's graph; usable once {@link #ready}. */
    static final class ScopeIndex {
        private final long created = System.nanoTime();
        private volatile HnswIndex<Long, float[], Vec, Float> graph;
        private volatile boolean ready;
        private boolean replaced;

        boolean ready() {
            return ready;
        }

        int size() {
            HnswIndex<Long, float[], Vec, Float> g = graph;
            return g == null ? 0 : g.size();
        }

        long bytes() {
            HnswIndex<Long, float[], Vec, Float> g = graph;
            return g == null ? 0 : g.size() * bytesPerVector(g.getDimensions());
        }

        boolean stale() {
            return System.nanoTime() - created > REBUILD_AFTER.toNanos();
        }

        /** The ids of the about {@code k} nearest vectors, nearest first. */
        List<Long> search(float[] query, int k) {
            List<Long> out = new ArrayList<>(k);
            for (SearchResult<Vec, Float> r : graph.findNearest(query, k))
                out.add(r.item().id());
            return out;
        }

        void add(Vec v) {
            HnswIndex<Long, float[], Vec, Float> g = graph;
            if (g == null || g.getDimensions() != v.dimensions()) return;
            synchronized (this) {
                while (true) {
                    try {
                        g.add(v);
                        return;
                    } catch (SizeLimitExceededException full) {
                        g.resize(Math.max(1024, g.getMaxItemCount() * 2));
                    }
                }
            }
        }

        void remove(long id) {
            HnswIndex<Long, float[], Vec, Float> g = graph;
            if (g != null) g.remove(id, Long.MAX_VALUE);
        }
    }

    private final Executor builder;
    /** The heap all indexes together may take, read at each build: {@link #heapShare()} outside tests. */
    private final LongSupplier budget;
    /** Scopes already reported as too large to index, so the log says it once. */
    private final java.util.Set<Key> tooLarge = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final Map<Key, ScopeIndex> indexes = new LinkedHashMap<>(16, 0.75f, true);
    /** Vectors written through {@link #added} outrank those a build read earlier. */
    private final AtomicLong versions = new AtomicLong();

    VectorIndexes(Executor builder, LongSupplier budget) {
        this.builder = builder;
        this.budget = budget;
    }

    /**
     * The ready index of {@code key} if the scope holds at least {@code threshold} vectors; empty when it should be
     * scanned. {@code count} is the scope's vector count when the caller read it (-1 when not), which starts a build
     * once it reaches the threshold; {@code rows} reads the scope's stored vectors for it.
     */
    Optional<ScopeIndex> lookup(Key key, int dims, int threshold, long count, Function<Key, List<Row>> rows) {
        ScopeIndex idx;
        synchronized (indexes) {
            idx = indexes.get(key);
            if (idx != null && idx.ready() && idx.size() < threshold) {
                indexes.remove(key); // the threshold was raised, or the scope shrank: back to the exact scan
                return Optional.empty();
            }
            if (idx != null && idx.ready() && idx.stale() && !idx.replaced) {
                idx.replaced = true;
                startBuild(key, dims, Math.max(count, idx.size()), rows, idx);
            }
            if (idx == null && count >= threshold) startBuild(key, dims, count, rows, null);
        }
        return idx != null && idx.ready() ? Optional.of(idx) : Optional.empty();
    }

    /** Runs {@code work} where the builds run, after those already asked for; a failure is logged. */
    void inBackground(Runnable work) {
        builder.execute(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.warn(
                        "memory: the approximate indexes of large scopes were not started, recall scans them: {}",
                        e.toString());
            }
        });
    }

    /** Whether a search of {@code key} at {@code threshold} would go through a ready index; changes nothing. */
    boolean serves(Key key, int threshold) {
        synchronized (indexes) {
            ScopeIndex idx = indexes.get(key);
            return idx != null && idx.ready() && idx.size() >= threshold;
        }
    }

    /** How a search of {@code key}'s {@code count} vectors of {@code dims} at {@code threshold} goes now. */
    MemoryVectors.Search state(Key key, long count, int dims, int threshold) {
        if (count * bytesPerVector(dims) > budget.getAsLong()) return MemoryVectors.Search.EXACT_TOO_LARGE;
        synchronized (indexes) {
            ScopeIndex idx = indexes.get(key);
            if (idx == null) return MemoryVectors.Search.EXACT_NOT_BUILT;
            if (!idx.ready()) return MemoryVectors.Search.INDEX_BUILDING;
            return idx.size() >= threshold ? MemoryVectors.Search.INDEX_READY : MemoryVectors.Search.EXACT_NOT_BUILT;
        }
    }

    /** Entry {@code id} of {@code key} now holds {@code vector} (unit length). */
    void added(Key key, long id, float[] vector) {
        ScopeIndex idx;
        synchronized (indexes) {
            idx = indexes.get(key);
        }
        if (idx != null) idx.add(new Vec(id, vector, versions.incrementAndGet()));
    }

    boolean anyFor(String modelId) {
        synchronized (indexes) {
            for (Key k : indexes.keySet()) if (k.modelId().equals(modelId)) return true;
            return false;
        }
    }

    private void startBuild(Key key, int dims, long count, Function<Key, List<Row>> rows, ScopeIndex serving) {
        if (count * bytesPerVector(dims) > budget.getAsLong()) {
            if (tooLarge.add(key))
                LOG.warn(
                        "memory: a scope's {} vectors would take more than a third of the heap as an approximate"
                                + " index; recall scans them (raise -Xmx to index it)",
                        count);
            return;
        }
        ScopeIndex next = new ScopeIndex();
        // the graph exists before the rows are read: a vector written meanwhile reaches it
        next.graph = HnswIndex.newBuilder(dims, DistanceFunctions.FLOAT_INNER_PRODUCT, (int)
                        Math.min(Integer.MAX_VALUE / 2, count + 1024))
                .withM(M)
                .withEfConstruction(EF_CONSTRUCTION)
                .withEf(EF)
                .withRemoveEnabled()
                .build();
        if (serving == null) indexes.put(key, next);
        builder.execute(() -> build(key, dims, rows, next, serving));
    }

    private void build(Key key, int dims, Function<Key, List<Row>> rows, ScopeIndex next, ScopeIndex serving) {
        long start = System.nanoTime();
        try {
            if (serving != null) {
                synchronized (indexes) {
                    // writes from now on reach the new graph too
                    if (indexes.get(key) == serving) indexes.put(key, next);
                }
            }
            List<Row> stored = rows.apply(key);
            for (Row r : stored) if (r.vector().length == dims) next.add(new Vec(r.id(), r.vector(), 0));
            next.ready = true;
            evict(key);
            LOG.info(
                    "memory: approximate index of {} vectors ready for a scope in {} ms",
                    next.size(),
                    (System.nanoTime() - start) / 1_000_000);
        } catch (RuntimeException e) {
            synchronized (indexes) {
                if (indexes.get(key) == next) indexes.remove(key);
            }
            LOG.warn("memory: the approximate index of a scope could not be built, recall scans it: {}", e.toString());
        }
    }

    /** The heap one vector of {@code dims} dimensions takes in a graph: its floats, its links and its node. */
    static long bytesPerVector(int dims) {
        return dims * (long) Float.BYTES + 2L * M * Integer.BYTES + 256;
    }

    /** A third of the maximum heap ({@link #HEAP_SHARE_DIVISOR}): the budget of the gateway's indexes. */
    static long heapShare() {
        return Runtime.getRuntime().maxMemory() / HEAP_SHARE_DIVISOR;
    }

    private void evict(Key keep) {
        synchronized (indexes) {
            long total = 0;
            for (ScopeIndex i : indexes.values()) total += i.bytes();
            Iterator<Map.Entry<Key, ScopeIndex>> it = indexes.entrySet().iterator();
            while (total > budget.getAsLong() && it.hasNext()) {
                Map.Entry<Key, ScopeIndex> e = it.next();
                if (e.getKey().equals(keep) || !e.getValue().ready()) continue;
                total -= e.getValue().bytes();
                it.remove();
            }
        }
    }
}
