package dev.clawgate.store.internal;

import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.MemoryVectors;
import dev.clawgate.core.memory.Vectors;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * {@link MemoryVectors} on either SQL dialect (V013): the vector in {@code memories.embedding} (SQLite BLOB, PostgreSQL
 * {@code bytea}, the same bytes), the model in {@code embedding_model}. Nearest neighbours are exact: the scopes'
 * vectors of the model are read and compared in the JVM, keeping the best in a bounded heap, then only those rows are
 * read whole. A scope holds at most {@code memory.max_entries_per_scope} entries (10,000 by default), which keeps this
 * a few tens of milliseconds; past {@code memory.ann_threshold} vectors a scope is searched through an approximate
 * index instead ({@link VectorIndexes}). bench/RESULTS.md measures both at 1,000 and 100,000.
 */
public final class JdbcMemoryVectors implements MemoryVectors {
    /** Candidates an approximate index hands over per result asked for, re-scored exactly from their rows. */
    static final int ANN_CANDIDATES_PER_RESULT = 2;

    private final Database db;
    private final VectorIndexes indexes;

    public JdbcMemoryVectors(Database db) {
        this(db, oneBuildAtATime(), VectorIndexes::heapShare);
    }

    /** @param indexBuilder runs the builds of approximate indexes, off the recall path */
    public JdbcMemoryVectors(Database db, Executor indexBuilder) {
        this(db, indexBuilder, VectorIndexes::heapShare);
    }

    /** @param indexBudget the heap all approximate indexes together may take, in bytes (a third of it outside tests) */
    JdbcMemoryVectors(Database db, Executor indexBuilder, LongSupplier indexBudget) {
        this.db = Objects.requireNonNull(db, "db");
        this.indexes = new VectorIndexes(
                Objects.requireNonNull(indexBuilder, "indexBuilder"), Objects.requireNonNull(indexBudget, "budget"));
    }

    /**
     * One platform thread of the lowest priority, gone when idle: a build is minutes of CPU at 100,000 vectors, which
     * would hold a virtual thread's carrier, and builds queue rather than take several cores at once.
     */
    private static Executor oneBuildAtATime() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                1,
                1,
                30,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                Thread.ofPlatform()
                        .daemon()
                        .priority(Thread.MIN_PRIORITY)
                        .name("memory-vector-index")
                        .factory());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Scope, vector count and dimensions of the scopes with at least {@code annThreshold} vectors of the model. */
    private record Large(String scope, long count, int dims) {}

    private List<Large> large(String modelId, int annThreshold) {
        return db.read(
                "memory vectors large scopes",
                tx -> tx.list(
                        "SELECT scope, COUNT(*), MAX(LENGTH(embedding)) FROM memories WHERE embedding_model = ?"
                                + " GROUP BY scope HAVING COUNT(*) >= ? ORDER BY scope",
                        rs -> new Large(rs.getString(1), rs.getLong(2), rs.getInt(3) / Float.BYTES),
                        modelId,
                        annThreshold));
    }

    @Override
    public List<LargeScope> largeScopes(String modelId, int annThreshold) {
        List<LargeScope> out = new ArrayList<>();
        for (Large l : large(modelId, annThreshold))
            out.add(new LargeScope(
                    l.scope(),
                    l.count(),
                    indexes.state(new VectorIndexes.Key(l.scope(), modelId), l.count(), l.dims(), annThreshold)));
        return out;
    }

    /** The scopes are counted on the index builder's thread too: the gateway's start does not wait for it. */
    @Override
    public void indexLargeScopes(String modelId, int annThreshold) {
        indexes.inBackground(() -> {
            for (Large l : large(modelId, annThreshold))
                indexes.lookup(
                        new VectorIndexes.Key(l.scope(), modelId), l.dims(), annThreshold, l.count(), this::rows);
        });
    }

    /** The entries never embedded, from an id upwards: one range of V017's index. */
    static final String PENDING_UNEMBEDDED = "SELECT id, content, content_hash FROM memories"
            + " WHERE embedding_model IS NULL AND id > ? ORDER BY id LIMIT ?";

    /** The entries of one model, from an id upwards: one range of V017's index. */
    static final String PENDING_OF_MODEL = "SELECT id, content, content_hash FROM memories"
            + " WHERE embedding_model = ? AND id > ? ORDER BY id LIMIT ?";

    /** The first model id after another, in the index's order: one probe of V017's index. */
    static final String NEXT_MODEL =
            "SELECT embedding_model FROM memories WHERE embedding_model > ?" + " ORDER BY embedding_model LIMIT 1";

    static final String FIRST_MODEL = "SELECT embedding_model FROM memories WHERE embedding_model IS NOT NULL"
            + " ORDER BY embedding_model LIMIT 1";

    /**
     * {@inheritDoc} Read as ranges of V017's index: the entries never embedded, then those of each other model (found
     * one probe per model, a handful at most: a model change leaves one), merged by id. The current model's entries,
     * nearly all of them, are never read, so asking after every turn costs a few probes, not a pass over every memory.
     */
    @Override
    public List<Pending> pending(String modelId, long afterId, int limit) {
        Objects.requireNonNull(modelId, "modelId");
        if (limit < 1) return List.of();
        return db.read("memory vectors pending", tx -> {
            List<Pending> out =
                    new ArrayList<>(tx.list(PENDING_UNEMBEDDED, JdbcMemoryVectors::pending, afterId, limit));
            Optional<String> model = tx.first(FIRST_MODEL, rs -> rs.getString(1));
            while (model.isPresent()) {
                if (!model.get().equals(modelId))
                    out.addAll(tx.list(PENDING_OF_MODEL, JdbcMemoryVectors::pending, model.get(), afterId, limit));
                model = tx.first(NEXT_MODEL, rs -> rs.getString(1), model.get());
            }
            out.sort(Comparator.comparingLong(Pending::id));
            return out.size() <= limit ? out : List.copyOf(out.subList(0, limit));
        });
    }

    private static Pending pending(ResultSet rs) throws SQLException {
        return new Pending(rs.getLong(1), rs.getString(2), rs.getString(3));
    }

    @Override
    public boolean put(long id, String contentHash, String modelId, float[] vector) {
        byte[] bytes = Vectors.toBytes(vector);
        boolean indexing = indexes.anyFor(modelId);
        Optional<String> scope = db.write("memory vector put", tx -> {
            int n = tx.update(
                    "UPDATE memories SET embedding = ?, embedding_model = ? WHERE id = ? AND content_hash = ?",
                    bytes,
                    modelId,
                    id,
                    contentHash);
            if (n == 0) return Optional.empty();
            return indexing
                    ? tx.first("SELECT scope FROM memories WHERE id = ?", rs -> rs.getString(1), id)
                    : Optional.of("");
        });
        // the approximate index of the entry's scope, if it has one, takes the vector in at once
        if (indexing && scope.isPresent())
            indexes.added(new VectorIndexes.Key(scope.get(), modelId), id, Vectors.unit(vector));
        return scope.isPresent();
    }

    @Override
    public List<Similar> nearest(List<MemoryScope> scopes, String modelId, float[] query, int limit) {
        return nearest(scopes, modelId, query, limit, Integer.MAX_VALUE);
    }

    /**
     * Scopes with fewer than {@code annThreshold} vectors of the model are scanned exactly; a scope the scan finds at
     * or over it gets an HNSW index built in the background ({@link VectorIndexes}), which later recalls search
     * instead: its candidates ({@link #ANN_CANDIDATES_PER_RESULT} per result asked for) are read back from their rows,
     * so every similarity returned is exact and no entry forgotten, changed or of another scope is returned.
     */
    @Override
    public List<Similar> nearest(List<MemoryScope> scopes, String modelId, float[] query, int limit, int annThreshold) {
        if (scopes.isEmpty() || limit < 1) return List.of();
        float[] q = Vectors.unit(query);
        List<String> scan = new ArrayList<>();
        Map<String, VectorIndexes.ScopeIndex> indexed = new LinkedHashMap<>();
        for (MemoryScope s : scopes) {
            VectorIndexes.Key key = new VectorIndexes.Key(s.id(), modelId);
            if (annThreshold == Integer.MAX_VALUE) scan.add(s.id()); // exact asked for: indexes are left as they are
            else
                indexes.lookup(key, q.length, annThreshold, -1, this::rows)
                        .ifPresentOrElse(i -> indexed.put(s.id(), i), () -> scan.add(s.id()));
        }
        Map<String, Long> counts = new HashMap<>();
        List<Similar> out = db.read("memory vector recall", tx -> {
            Best best = new Best(limit);
            if (!scan.isEmpty()) scanExact(tx, scan, modelId, q, best, counts);
            for (Map.Entry<String, VectorIndexes.ScopeIndex> e : indexed.entrySet()) {
                VectorIndexes.ScopeIndex idx = e.getValue();
                List<Long> ids = idx.search(q, Math.max(limit * ANN_CANDIDATES_PER_RESULT, limit + 10));
                if (!ids.isEmpty()) verify(tx, ids, e.getKey(), modelId, q, best, idx);
            }
            return entries(tx, best);
        });
        if (annThreshold == Integer.MAX_VALUE) return out;
        for (Map.Entry<String, Long> c : counts.entrySet())
            indexes.lookup(
                    new VectorIndexes.Key(c.getKey(), modelId), q.length, annThreshold, c.getValue(), this::rows);
        return out;
    }

    /** Whether recall over {@code scope}'s vectors of {@code modelId} goes through a ready approximate index. */
    public boolean approximate(MemoryScope scope, String modelId, int annThreshold) {
        return indexes.serves(new VectorIndexes.Key(scope.id(), modelId), annThreshold);
    }

    private static void scanExact(
            Tx tx, List<String> scopes, String modelId, float[] q, Best best, Map<String, Long> counts)
            throws SQLException {
        Object[] params = new Object[scopes.size() + 1];
        for (int i = 0; i < scopes.size(); i++) params[i] = scopes.get(i);
        params[scopes.size()] = modelId;
        String marks = String.join(", ", Collections.nCopies(scopes.size(), "?"));
        tx.list(
                "SELECT id, scope, embedding FROM memories WHERE scope IN (" + marks + ") AND embedding_model = ?",
                rs -> {
                    counts.merge(rs.getString(2), 1L, Long::sum);
                    best.offer(rs.getLong(1), Vectors.dot(q, rs.getBytes(3)));
                    return null;
                },
                params);
    }

    private static void verify(
            Tx tx, List<Long> ids, String scope, String modelId, float[] q, Best best, VectorIndexes.ScopeIndex idx)
            throws SQLException {
        Object[] params = new Object[ids.size() + 2];
        for (int i = 0; i < ids.size(); i++) params[i] = ids.get(i);
        params[ids.size()] = scope;
        params[ids.size() + 1] = modelId;
        Set<Long> gone = new HashSet<>(ids);
        tx.list(
                "SELECT id, embedding FROM memories WHERE id IN ("
                        + String.join(", ", Collections.nCopies(ids.size(), "?"))
                        + ") AND scope = ? AND embedding_model = ?",
                rs -> {
                    gone.remove(rs.getLong(1));
                    best.offer(rs.getLong(1), Vectors.dot(q, rs.getBytes(2)));
                    return null;
                },
                params);
        for (long id : gone) idx.remove(id); // forgotten, changed (not embedded again yet) or moved since indexed
    }

    private static List<Similar> entries(Tx tx, Best best) throws SQLException {
        Map<Long, Double> cosines = best.cosines();
        if (cosines.isEmpty()) return List.of();
        List<Object> ids = new ArrayList<>(cosines.keySet());
        List<MemoryEntry> entries = tx.list(
                "SELECT " + MemoryRows.COLUMNS + " FROM memories m WHERE m.id IN ("
                        + String.join(", ", Collections.nCopies(ids.size(), "?")) + ")",
                rs -> MemoryRows.map(rs).entry(),
                ids.toArray());
        List<Similar> out = new ArrayList<>(entries.size());
        for (MemoryEntry e : entries) out.add(new Similar(e, cosines.get(e.id())));
        out.sort(Comparator.comparingDouble(Similar::cosine).reversed());
        return out;
    }

    /** The stored vectors of one scope and model, for an index. */
    private List<VectorIndexes.Row> rows(VectorIndexes.Key key) {
        return db.read(
                "memory vectors for an index",
                tx -> tx.list(
                        "SELECT id, embedding FROM memories WHERE scope = ? AND embedding_model = ?",
                        rs -> new VectorIndexes.Row(rs.getLong(1), Vectors.fromBytes(rs.getBytes(2))),
                        key.scope(),
                        key.modelId()));
    }

    /** The {@code limit} highest cosines offered, with their ids; an id offered twice counts once. */
    private static final class Best {
        private final int limit;
        private final PriorityQueue<long[]> heap =
                new PriorityQueue<>(Comparator.comparingDouble(a -> Double.longBitsToDouble(a[1])));
        private final Set<Long> ids = new HashSet<>();

        Best(int limit) {
            this.limit = limit;
        }

        void offer(long id, double cos) {
            if (Double.isNaN(cos) || ids.contains(id)) return;
            if (heap.size() >= limit) {
                if (cos <= Double.longBitsToDouble(heap.peek()[1])) return;
                ids.remove(heap.poll()[0]);
            }
            heap.add(new long[] {id, Double.doubleToLongBits(cos)});
            ids.add(id);
        }

        Map<Long, Double> cosines() {
            Map<Long, Double> out = new HashMap<>();
            for (long[] b : heap) out.put(b[0], Double.longBitsToDouble(b[1]));
            return out;
        }
    }

    @Override
    public Progress progress(String modelId) {
        return db.read(
                "memory vectors progress",
                tx -> tx.first(
                                "SELECT COUNT(*), COALESCE(SUM(CASE WHEN embedding_model = ? THEN 1 ELSE 0 END), 0)"
                                        + " FROM memories",
                                rs -> new Progress(rs.getLong(1), rs.getLong(2)),
                                modelId)
                        .orElseThrow());
    }
}
