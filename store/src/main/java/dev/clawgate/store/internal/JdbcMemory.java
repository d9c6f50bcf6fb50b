package dev.clawgate.store.internal;

import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.MemoryVectors;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.memory.Relevance;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link Memory} on either SQL dialect, in the store's database. Recall asks the database's full-text index for
 * candidates (SQLite FTS5 ranked by {@code bm25()}, PostgreSQL {@code tsvector} ranked by {@code ts_rank()}), then
 * scores them with {@link Relevance} on counts read in the same transaction (or taken from the candidates when they are
 * all the matches), so scores lie in [0, 1] and agree across dialects.
 */
public final class JdbcMemory implements Memory {
    /** How many candidates the database hands over per recalled entry: room for the re-scoring to reorder. */
    private static final int CANDIDATES_PER_RESULT = 5;

    private static final int MIN_CANDIDATES = 25;

    private final Database db;
    private final Clock clock;
    private final JdbcMemoryVectors vectors;
    private final CorpusTotals totals;

    public JdbcMemory(Database db, Clock clock) {
        this(db, clock, System::nanoTime);
    }

    /** As above, with the clock {@link CorpusTotals} ages its figures by (tests move it). */
    JdbcMemory(Database db, Clock clock, java.util.function.LongSupplier nanos) {
        this.db = Objects.requireNonNull(db, "db");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.vectors = new JdbcMemoryVectors(db);
        this.totals = new CorpusTotals(nanos);
    }

    /** The entries' vectors, in the same rows (SPEC ME-5, V013). */
    @Override
    public MemoryVectors vectors() {
        return vectors;
    }

    @Override
    public MemoryEntry store(MemoryScope scope, String key, String content, String category) {
        Objects.requireNonNull(scope, "scope");
        if (key == null || key.isBlank()) throw new IllegalArgumentException("a memory needs a key");
        if (content == null || content.isBlank()) throw new IllegalArgumentException("a memory needs content");
        if (!MemoryEntry.isCategory(category)) throw new IllegalArgumentException("not a memory category: " + category);
        String text = content.strip();
        String hash = sha256(text);
        List<String> terms = Relevance.indexTerms(key, text, category);
        String termText = String.join(" ", terms);
        Dialect dialect = db.dialect();
        return db.write("memory store", tx -> {
            long now = clock.millis();
            Optional<MemoryRows.Row> same = MemoryRows.byHash(tx, scope, hash);
            if (same.isPresent()) {
                // SPEC ME-7: identical content is kept once; the key's older content is superseded by it
                MemoryEntry kept = same.get().entry();
                if (!kept.key().equals(key)) MemoryRows.deleteKey(tx, dialect, scope, key);
                MemoryRows.touch(tx, kept.id(), now);
                return withUpdated(kept, now);
            }
            Optional<MemoryRows.Row> old = MemoryRows.byKey(tx, scope, key);
            if (old.isPresent()) {
                MemoryEntry e = old.get().entry();
                MemoryRows.replace(tx, dialect, scope, e.id(), text, category, hash, termText, terms.size(), now);
                return new MemoryEntry(e.id(), scope, key, text, category, e.createdAt(), Instant.ofEpochMilli(now));
            }
            long id = MemoryRows.insert(tx, dialect, scope, key, text, category, hash, termText, terms.size(), now);
            return new MemoryEntry(
                    id, scope, key, text, category, Instant.ofEpochMilli(now), Instant.ofEpochMilli(now));
        });
    }

    @Override
    public List<Recalled> recall(String query, List<MemoryScope> scopes, int limit) {
        List<String> terms = Relevance.queryTerms(query);
        List<MemoryScope> distinct = List.copyOf(new LinkedHashSet<>(scopes));
        if (terms.isEmpty() || distinct.isEmpty() || limit < 1) return List.of();
        Dialect dialect = db.dialect();
        return db.read("memory recall", tx -> {
            MemoryRows.Scopes read = MemoryRows.Scopes.of(tx, dialect, distinct);
            if (read.indexedNowhere(dialect)) return List.of();
            int wanted = Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_RESULT);
            List<MemoryRows.Row> rows = MemoryRows.candidates(tx, dialect, read, terms, wanted);
            if (rows.isEmpty()) return List.of();
            List<String> ids = distinct.stream().map(MemoryScope::id).toList();
            long[] totals = this.totals.of(ids, () -> MemoryRows.countAndTotalTerms(tx, read));
            Map<String, Long> withTerm;
            if (rows.size() < wanted) withTerm = countedAmong(rows, terms);
            else {
                withTerm = new HashMap<>();
                for (String t : terms)
                    withTerm.put(
                            t,
                            this.totals.withTerm(
                                    ids, totals[0], t, () -> MemoryRows.entriesWithTerm(tx, dialect, read, t)));
            }
            // cached totals may trail the exact per-term counts by a few entries: never fewer entries than hold a term
            long entries = Math.max(
                    totals[0],
                    withTerm.values().stream().mapToLong(Long::longValue).max().orElse(0));
            Relevance.Corpus corpus =
                    new Relevance.Corpus(entries, totals[0] == 0 ? 0 : (double) totals[1] / totals[0], withTerm);
            List<Recalled> scored = new ArrayList<>(rows.size());
            for (MemoryRows.Row r : rows) {
                double score = Relevance.score(terms, r.terms(), corpus);
                if (score > 0) scored.add(new Recalled(r.entry(), score));
            }
            scored.sort(Comparator.comparingDouble(Recalled::score)
                    .reversed()
                    .thenComparing(r -> r.entry().updatedAt(), Comparator.reverseOrder()));
            return List.copyOf(scored.subList(0, Math.min(limit, scored.size())));
        });
    }

    /**
     * How many of {@code rows} hold each term. When the candidates are fewer than were asked for they are every entry
     * of the scopes holding any term, so these are the scopes' counts, without a query per term.
     */
    private static Map<String, Long> countedAmong(List<MemoryRows.Row> rows, List<String> terms) {
        Map<String, Long> counts = new HashMap<>();
        for (String t : terms) counts.put(t, 0L);
        for (MemoryRows.Row r : rows) {
            for (String t : new HashSet<>(r.terms())) counts.computeIfPresent(t, (k, n) -> n + 1);
        }
        return counts;
    }

    @Override
    public boolean forget(MemoryScope scope, String key) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(key, "key");
        return db.write("memory forget", tx -> MemoryRows.deleteKey(tx, db.dialect(), scope, key) > 0);
    }

    @Override
    public Optional<MemoryEntry> get(MemoryScope scope, String key) {
        return db.read("memory get", tx -> MemoryRows.byKey(tx, scope, key).map(MemoryRows.Row::entry));
    }

    @Override
    public List<MemoryEntry> list(MemoryScope scope, int limit) {
        if (limit < 0) throw new IllegalArgumentException("limit must not be negative, got " + limit);
        return db.read(
                "memory list",
                tx -> MemoryRows.list(tx, scope, limit).stream()
                        .map(MemoryRows.Row::entry)
                        .toList());
    }

    /**
     * {@inheritDoc} Auto-save trims after every save, and the scope is nearly always under its cap: the count is read
     * first, outside the writer, so only a scope over its cap takes a write (which counts again, in its own
     * transaction). The read sees every commit before it, this caller's save included (issue 27).
     */
    @Override
    public int trim(MemoryScope scope, int maxEntries) {
        if (maxEntries < 0) throw new IllegalArgumentException("maxEntries must not be negative, got " + maxEntries);
        if (db.read("memory count", tx -> MemoryRows.count(tx, scope)) <= maxEntries) return 0;
        return db.write("memory trim", tx -> MemoryRows.trim(tx, db.dialect(), scope, maxEntries));
    }

    @Override
    public int expire(String category, Instant before) {
        Objects.requireNonNull(category, "category");
        return db.write("memory expire", tx -> MemoryRows.expire(tx, db.dialect(), category, before.toEpochMilli()));
    }

    /** Pages of the FTS5 index one merge step writes at most: tens of milliseconds of the writer at 100,000 entries. */
    static final int MERGE_PAGES = 64;

    /** Merge steps one optimize takes at most (a bound, never reached: an hour of writes is a few dozen). */
    static final int MAX_MERGE_STEPS = 10_000;

    /**
     * {@inheritDoc} On SQLite the FTS5 index's segments (one per write, merged only a few at a time as writes go on)
     * become one, in steps of at most {@link #MERGE_PAGES} pages, each its own write, so turns' writes go on between
     * them: FTS5's {@code optimize} does it in one write, which holds the writer about a second at 100,000 entries.
     * PostgreSQL's GIN index is merged by its own (auto)vacuum, so there is nothing to do.
     */
    @Override
    public void optimize() {
        if (db.dialect() != Dialect.SQLITE) return;
        for (int step = 0; step < MAX_MERGE_STEPS; step++) {
            // a negative page count merges any level holding two segments or more: the end is a single segment
            boolean merged = db.write("memory optimize", tx -> {
                long before =
                        tx.first("SELECT total_changes()", rs -> rs.getLong(1)).orElseThrow();
                tx.update("INSERT INTO memory_fts (memory_fts, rank) VALUES ('merge', ?)", -MERGE_PAGES);
                // FTS5's rule: a step that changed fewer than two rows found nothing left to merge
                return tx.first("SELECT total_changes()", rs -> rs.getLong(1)).orElseThrow() - before >= 2;
            });
            if (!merged) return;
        }
    }

    private static MemoryEntry withUpdated(MemoryEntry e, long now) {
        return new MemoryEntry(
                e.id(), e.scope(), e.key(), e.content(), e.category(), e.createdAt(), Instant.ofEpochMilli(now));
    }

    static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
