package dev.clawgate.store.internal;

import dev.clawgate.core.memory.MemoryScope;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * SQLite's keyword index, {@code memory_fts} (V010): each term is indexed as {@code <scope number>_<term>}, the number
 * from {@code memory_scopes}, so a recall reads only the entries of the scopes it asks for (SPEC ME-2), not every
 * user's entries holding a common word.
 */
final class ScopedTerms {

    private ScopedTerms() {}

    /** The scope's number, given to it now if it has none. */
    static long number(Tx tx, MemoryScope scope) throws SQLException {
        Optional<Long> known =
                tx.first("SELECT id FROM memory_scopes WHERE scope = ?", rs -> rs.getLong(1), scope.id());
        if (known.isPresent()) return known.get();
        return tx.first("INSERT INTO memory_scopes (scope) VALUES (?) RETURNING id", rs -> rs.getLong(1), scope.id())
                .orElseThrow();
    }

    /** The numbers of those of {@code scopes} that ever held an entry; the others have nothing to recall. */
    static List<Long> numbers(Tx tx, List<MemoryScope> scopes) throws SQLException {
        return tx.list(
                "SELECT id FROM memory_scopes WHERE scope IN ("
                        + String.join(", ", Collections.nCopies(scopes.size(), "?")) + ")",
                rs -> rs.getLong(1),
                scopes.stream().map(MemoryScope::id).toArray());
    }

    /** The indexed text of an entry of scope {@code number} with these space-separated terms. */
    static String text(long number, String terms) {
        return terms.isEmpty() ? "" : number + "_" + terms.replace(" ", " " + number + "_");
    }

    /**
     * An FTS5 query for entries of any of the scopes holding any of the terms; terms are letters and digits, so quoting
     * is plain.
     */
    static String match(List<Long> numbers, List<String> terms) {
        List<String> tokens = new ArrayList<>(numbers.size() * terms.size());
        for (String t : terms) {
            for (long n : numbers) tokens.add("\"" + n + "_" + t + "\"");
        }
        return String.join(" OR ", tokens);
    }

    static void insert(Tx tx, MemoryScope scope, long id, String terms) throws SQLException {
        tx.update("INSERT INTO memory_fts (rowid, terms) VALUES (?, ?)", id, text(number(tx, scope), terms));
    }

    static void replace(Tx tx, MemoryScope scope, long id, String terms) throws SQLException {
        tx.update("UPDATE memory_fts SET terms = ? WHERE rowid = ?", text(number(tx, scope), terms), id);
    }

    /** How many entries of the scopes hold {@code term}. */
    static long entriesWithTerm(Tx tx, List<Long> numbers, String term) throws SQLException {
        return tx.first(
                        "SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH ?",
                        rs -> rs.getLong(1),
                        match(numbers, List.of(term)))
                .orElse(0L);
    }
}
