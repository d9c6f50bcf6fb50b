package dev.clawgate.store.internal;

import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.MemoryVectors;
import dev.clawgate.core.memory.Vectors;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * {@link MemoryVectors} on either SQL dialect (V013): the vector in {@code memories.embedding} (SQLite BLOB, PostgreSQL
 * {@code bytea}, the same bytes), the model in {@code embedding_model}. Nearest neighbours are exact: the scopes'
 * vectors of the model are read and compared in the JVM, keeping the best in a bounded heap, then only those rows are
 * read whole. A scope holds at most {@code memory.max_entries_per_scope} entries (10,000 by default), which keeps this
 * a few milliseconds; bench/RESULTS.md measures it at 100,000.
 */
public final class JdbcMemoryVectors implements MemoryVectors {
    private final Database db;

    public JdbcMemoryVectors(Database db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public List<Pending> pending(String modelId, long afterId, int limit) {
        Objects.requireNonNull(modelId, "modelId");
        return db.read(
                "memory vectors pending",
                tx -> tx.list(
                        "SELECT id, content, content_hash FROM memories WHERE id > ?"
                                + " AND (embedding_model IS NULL OR embedding_model <> ?) ORDER BY id LIMIT ?",
                        rs -> new Pending(rs.getLong(1), rs.getString(2), rs.getString(3)),
                        afterId,
                        modelId,
                        limit));
    }

    @Override
    public boolean put(long id, String contentHash, String modelId, float[] vector) {
        byte[] bytes = Vectors.toBytes(vector);
        return db.write(
                "memory vector put",
                tx -> tx.update(
                                "UPDATE memories SET embedding = ?, embedding_model = ? WHERE id = ?"
                                        + " AND content_hash = ?",
                                bytes,
                                modelId,
                                id,
                                contentHash)
                        > 0);
    }

    @Override
    public List<Similar> nearest(List<MemoryScope> scopes, String modelId, float[] query, int limit) {
        if (scopes.isEmpty() || limit < 1) return List.of();
        float[] q = Vectors.unit(query);
        Object[] params = new Object[scopes.size() + 1];
        for (int i = 0; i < scopes.size(); i++) params[i] = scopes.get(i).id();
        params[scopes.size()] = modelId;
        String marks = String.join(", ", Collections.nCopies(scopes.size(), "?"));
        return db.read("memory vector recall", tx -> {
            PriorityQueue<long[]> best =
                    new PriorityQueue<>(Comparator.comparingDouble(a -> Double.longBitsToDouble(a[1])));
            tx.list(
                    "SELECT id, embedding FROM memories WHERE scope IN (" + marks + ") AND embedding_model = ?",
                    rs -> {
                        double cos = Vectors.dot(q, rs.getBytes(2));
                        if (Double.isNaN(cos)) return null;
                        if (best.size() < limit) best.add(new long[] {rs.getLong(1), Double.doubleToLongBits(cos)});
                        else if (cos > Double.longBitsToDouble(best.peek()[1])) {
                            best.poll();
                            best.add(new long[] {rs.getLong(1), Double.doubleToLongBits(cos)});
                        }
                        return null;
                    },
                    params);
            if (best.isEmpty()) return List.of();
            Map<Long, Double> cosines = new HashMap<>();
            for (long[] b : best) cosines.put(b[0], Double.longBitsToDouble(b[1]));
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
        });
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
