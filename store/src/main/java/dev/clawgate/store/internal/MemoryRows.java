package dev.clawgate.store.internal;

import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of the {@code memories} table (V006). The full-text half differs by dialect: SQLite keeps {@code memory_fts}
 * in step by hand, its terms keyed by scope ({@link ScopedTerms}, V010), and ranks by {@code bm25()}; PostgreSQL
 * derives {@code search} from {@code terms} and ranks by {@code ts_rank()}.
 */
final class MemoryRows {
    static final String COLUMNS = "m.id, m.scope, m.mkey, m.content, m.category, m.created_at, m.updated_at, m.terms";
    private static final String SELECT = "SELECT " + COLUMNS + " FROM memories m";
    /** Which conversation entries go first when a scope is over its cap: conversation before others, oldest first. */
    private static final String TRIM_ORDER =
            " ORDER BY CASE WHEN category = 'conversation' THEN 0 ELSE 1 END, updated_at, id";

    /** A row with the terms it is indexed by. */
    record Row(MemoryEntry entry, List<String> terms) {}

    /** The scopes a recall reads; on SQLite also their numbers in the keyword index (none: nothing to recall). */
    record Scopes(List<MemoryScope> scopes, List<Long> numbers) {
        static Scopes of(Tx tx, Dialect dialect, List<MemoryScope> scopes) throws SQLException {
            return new Scopes(scopes, dialect == Dialect.SQLITE ? ScopedTerms.numbers(tx, scopes) : List.of());
        }

        boolean indexedNowhere(Dialect dialect) {
            return dialect == Dialect.SQLITE && numbers.isEmpty();
        }
    }

    private MemoryRows() {}

    static Row map(ResultSet rs) throws SQLException {
        String terms = rs.getString(8);
        return new Row(
                new MemoryEntry(
                        rs.getLong(1),
                        MemoryScope.parse(rs.getString(2)),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        Instant.ofEpochMilli(rs.getLong(6)),
                        Instant.ofEpochMilli(rs.getLong(7))),
                terms.isEmpty() ? List.of() : List.of(terms.split(" ")));
    }

    static Optional<Row> byKey(Tx tx, MemoryScope scope, String key) throws SQLException {
        return tx.first(SELECT + " WHERE m.scope = ? AND m.mkey = ?", MemoryRows::map, scope.id(), key);
    }

    static Optional<Row> byHash(Tx tx, MemoryScope scope, String hash) throws SQLException {
        return tx.first(SELECT + " WHERE m.scope = ? AND m.content_hash = ?", MemoryRows::map, scope.id(), hash);
    }

    static List<Row> list(Tx tx, MemoryScope scope, int limit) throws SQLException {
        return tx.list(
                SELECT + " WHERE m.scope = ? ORDER BY m.updated_at DESC, m.id DESC LIMIT ?",
                MemoryRows::map,
                scope.id(),
                limit);
    }

    static long insert(
            Tx tx,
            Dialect dialect,
            MemoryScope scope,
            String key,
            String content,
            String category,
            String hash,
            String terms,
            int termCount,
            long now)
            throws SQLException {
        long id = tx.first(
                        "INSERT INTO memories (scope, mkey, content, category, content_hash, terms, term_count, "
                                + "created_at,"
                                + " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                        rs -> rs.getLong(1),
                        scope.id(),
                        key,
                        content,
                        category,
                        hash,
                        terms,
                        termCount,
                        now,
                        now)
                .orElseThrow();
        if (dialect == Dialect.SQLITE) ScopedTerms.insert(tx, scope, id, terms);
        return id;
    }

    static void replace(
            Tx tx,
            Dialect dialect,
            MemoryScope scope,
            long id,
            String content,
            String category,
            String hash,
            String terms,
            int termCount,
            long now)
            throws SQLException {
        tx.update(
                "UPDATE memories SET content = ?, category = ?, content_hash = ?, terms = ?, term_count = ?, "
                        + "updated_at = ?, embedding = NULL, embedding_model = NULL"
                        + " WHERE id = ?",
                content,
                category,
                hash,
                terms,
                termCount,
                now,
                id);
        if (dialect == Dialect.SQLITE) ScopedTerms.replace(tx, scope, id, terms);
    }

    static void touch(Tx tx, long id, long now) throws SQLException {
        tx.update("UPDATE memories SET updated_at = ? WHERE id = ?", now, id);
    }

    /** Deletes the rows whose ids {@code idQuery} selects, with their index entries; returns how many. */
    static int delete(Tx tx, Dialect dialect, String idQuery, Object... params) throws SQLException {
        if (dialect == Dialect.SQLITE) tx.update("DELETE FROM memory_fts WHERE rowid IN (" + idQuery + ")", params);
        return tx.update("DELETE FROM memories WHERE id IN (" + idQuery + ")", params);
    }

    static int deleteKey(Tx tx, Dialect dialect, MemoryScope scope, String key) throws SQLException {
        return delete(tx, dialect, "SELECT id FROM memories WHERE scope = ? AND mkey = ?", scope.id(), key);
    }

    static long count(Tx tx, MemoryScope scope) throws SQLException {
        return tx.first("SELECT COUNT(*) FROM memories WHERE scope = ?", rs -> rs.getLong(1), scope.id())
                .orElse(0L);
    }

    static int trim(Tx tx, Dialect dialect, MemoryScope scope, int maxEntries) throws SQLException {
        long count = count(tx, scope);
        if (count <= maxEntries) return 0;
        return delete(
                tx, dialect, "SELECT id FROM memories WHERE scope = ?" + TRIM_ORDER + " LIMIT ?", scope.id(), (int)
                        (count - maxEntries));
    }

    static int expire(Tx tx, Dialect dialect, String category, long before) throws SQLException {
        return delete(tx, dialect, "SELECT id FROM memories WHERE category = ? AND updated_at < ?", category, before);
    }

    // --- recall

    /** How many entries the scopes hold, and their average number of terms. */
    static long[] countAndTotalTerms(Tx tx, Scopes scopes) throws SQLException {
        return tx.first(
                        "SELECT COUNT(*), COALESCE(SUM(term_count), 0) FROM memories WHERE scope IN ("
                                + marks(scopes.scopes()) + ")",
                        rs -> new long[] {rs.getLong(1), rs.getLong(2)},
                        ids(scopes.scopes()))
                .orElseThrow();
    }

    /** How many entries of the scopes hold {@code term}. */
    static long entriesWithTerm(Tx tx, Dialect dialect, Scopes scopes, String term) throws SQLException {
        if (dialect == Dialect.SQLITE) return ScopedTerms.entriesWithTerm(tx, scopes.numbers(), term);
        return tx.first(
                        "SELECT COUNT(*) FROM memories m WHERE m.search @@ to_tsquery('simple', ?) AND m.scope IN ("
                                + marks(scopes.scopes()) + ")",
                        rs -> rs.getLong(1),
                        Params.of(new Object[] {tsQuery(List.of(term))}, ids(scopes.scopes())))
                .orElse(0L);
    }

    /** Entries of the scopes holding any of {@code terms}, the database's best {@code limit} by its own rank. */
    static List<Row> candidates(Tx tx, Dialect dialect, Scopes scopes, List<String> terms, int limit)
            throws SQLException {
        if (dialect == Dialect.SQLITE) {
            return tx.list(
                    SELECT + " JOIN memory_fts f ON f.rowid = m.id WHERE memory_fts MATCH ?"
                            + " ORDER BY bm25(memory_fts), m.updated_at DESC, m.id DESC LIMIT ?",
                    MemoryRows::map,
                    ScopedTerms.match(scopes.numbers(), terms),
                    limit);
        }
        String match = tsQuery(terms);
        return tx.list(
                SELECT + " WHERE m.search @@ to_tsquery('simple', ?) AND m.scope IN (" + marks(scopes.scopes())
                        + ") ORDER BY ts_rank(m.search, to_tsquery('simple', ?)) DESC, m.updated_at DESC, m.id DESC "
                        + "LIMIT ?",
                MemoryRows::map,
                Params.of(Params.of(new Object[] {match}, ids(scopes.scopes())), match, limit));
    }

    /** Any of the terms as a PostgreSQL text query; terms are runs of letters and digits, so quoting is plain. */
    private static String tsQuery(List<String> terms) {
        return String.join(" | ", terms.stream().map(t -> "'" + t + "'").toList());
    }

    private static String marks(List<MemoryScope> scopes) {
        return String.join(", ", Collections.nCopies(scopes.size(), "?"));
    }

    private static Object[] ids(List<MemoryScope> scopes) {
        return scopes.stream().map(MemoryScope::id).toArray();
    }
}
