package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.memory.MemoryEntry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MemoryContract on SQLite, whose keyword index is an FTS5 table (SPEC OP-1, ME-5). */
class SqliteMemoryTest extends MemoryContract {

    @TempDir
    Path dir;

    @Override
    protected StoreBackend backend() {
        return new SqliteBackend(dir.resolve("clawgate.db"));
    }

    @Test
    void theFts5IndexFollowsEveryWrite() {
        // SPEC ME-5: the FTS5 table holds exactly the live entries' terms
        var memory = memory();
        memory.store(ALICE_SCOPE, "a", "first remark about kites", MemoryEntry.CONVERSATION);
        memory.store(ALICE_SCOPE, "b", "second remark about boats", MemoryEntry.CONVERSATION);
        memory.store(ALICE_SCOPE, "a", "first remark about trains", MemoryEntry.CONVERSATION);
        memory.forget(ALICE_SCOPE, "b");

        long alice = count("SELECT id FROM memory_scopes WHERE scope = ?", ALICE_SCOPE.id());
        assertThat(rows("SELECT f.rowid, f.terms FROM memory_fts f ORDER BY f.rowid"))
                .containsExactlyElementsOf(rows(
                        "SELECT id, ? || '_' || replace(terms, ' ', ' ' || ? || '_') FROM memories ORDER BY id",
                        alice,
                        alice));
        assertThat(count("SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH ?", alice + "_kite"))
                .isZero();
        assertThat(count("SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH ?", alice + "_train"))
                .isEqualTo(1);
    }

    @Test
    void eachScopeHasItsOwnIndexTermsSoARecallReadsOnlyItsOwnEntries() {
        // SPEC ME-2, ME-5: a term is indexed per scope, so a common word in other scopes is not even read
        var memory = memory();
        memory.store(ALICE_SCOPE, "a", "kites over the harbour", MemoryEntry.CONVERSATION);
        memory.store(BOB_SCOPE, "b", "kites in the park", MemoryEntry.CONVERSATION);
        memory.store(BOB_SCOPE, "c", "more kites", MemoryEntry.CONVERSATION);

        assertThat(rows("SELECT scope FROM memory_scopes ORDER BY id"))
                .containsExactly(List.of(ALICE_SCOPE.id()), List.of(BOB_SCOPE.id()));
        assertThat(count("SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH '\"1_kite\"'"))
                .isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH '\"2_kite\"'"))
                .isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH 'kite'"))
                .isZero();
        // a scope is numbered once, whatever is forgotten
        memory.forget(ALICE_SCOPE, "a");
        memory.store(ALICE_SCOPE, "d", "kites again", MemoryEntry.CONVERSATION);
        assertThat(count("SELECT COUNT(*) FROM memory_scopes")).isEqualTo(2);
        assertThat(memory.recall("kites", java.util.List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("d");
    }

    @Test
    void theReceiptLookupByInboxIdIsOneIndexProbe() {
        // SPEC OUT-8: writing a reply's receipt does not scan the transcript (V010 transcript_inbox_id)
        open();
        assertThat(rows("EXPLAIN QUERY PLAN UPDATE transcript SET receipt = 'r' WHERE role = 'assistant'"
                        + " AND inbox_id = (SELECT turn_id FROM outbox WHERE id = 1)"))
                .extracting(r -> (String) r.get(3))
                .anySatisfy(detail -> assertThat(detail).contains("transcript USING INDEX transcript_inbox_id"))
                .noneSatisfy(detail -> assertThat(detail).startsWith("SCAN transcript"));
    }

    @Test
    void upgradingToV010ReindexesTheMemoriesOfEveryScope() throws Exception {
        // SPEC OP-1, ME-5: memories kept before V010 are found by scope after the upgrade, scored as before
        Path file = dir.resolve("clawgate.db");
        try (var db = dev.clawgate.store.internal.SqliteDatabase.open(file)) {
            new dev.clawgate.store.internal.Migrations(
                            dev.clawgate.store.internal.Migrations.ROOT,
                            dev.clawgate.store.internal.Migrations.SCHEMA.subList(0, 9))
                    .apply(db);
        }
        try (var c = backend().raw();
                var st = c.createStatement()) {
            // as V006..V009 stored them: one unscoped index
            st.execute("INSERT INTO memories (id, scope, mkey, content, category, content_hash, terms, term_count, "
                    + "created_at, updated_at)"
                    + " VALUES (7, '" + ALICE_SCOPE.id()
                    + "', 'a', 'My cat is named Pixel', 'conversation', 'h1', 'cat named pixel', 3, 1, 1),"
                    + " (9, '" + BOB_SCOPE.id()
                    + "', 'b', 'The cat next door is loud', 'conversation', 'h2', 'cat next door loud', 4, 2, "
                    + "2),"
                    + " (11, 'global', 'g', '!!', 'core', 'h3', '', 0, 3, 3)");
            st.execute("INSERT INTO memory_fts (rowid, terms) SELECT id, terms FROM memories");
        }
        var memory = memory();

        assertThat(rows("SELECT rowid, terms FROM memory_fts ORDER BY rowid"))
                .containsExactly(
                        List.of(7L, "2_cat 2_named 2_pixel"),
                        List.of(9L, "3_cat 3_next 3_door 3_loud"),
                        List.of(11L, ""));
        assertThat(memory.recall("cat", List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("a");
        assertThat(memory.recall("cat", List.of(BOB_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("b");
        assertThat(memory.recall("cat named", List.of(ALICE_SCOPE, BOB_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("a", "b");
        memory.store(ALICE_SCOPE, "a2", "Pixel likes tuna", MemoryEntry.CONVERSATION);
        assertThat(memory.recall("tuna", List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("a2");
    }

    @Test
    void optimizeMergesTheFts5IndexIntoOneSegmentAndRecallIsUnchanged() {
        // SPEC ME-5, issue 27: each write leaves an FTS5 segment; the hourly upkeep's optimize merges them into one
        var memory = memory();
        for (int i = 0; i < 30; i++)
            memory.store(ALICE_SCOPE, "k" + i, "remark number " + i + " about kites", MemoryEntry.CONVERSATION);
        var before = memory.recall("kites remark", java.util.List.of(ALICE_SCOPE), 5);
        assertThat(count("SELECT COUNT(DISTINCT segid) FROM memory_fts_idx")).isGreaterThan(1);

        memory.optimize();

        assertThat(count("SELECT COUNT(DISTINCT segid) FROM memory_fts_idx")).isEqualTo(1);
        assertThat(memory.recall("kites remark", java.util.List.of(ALICE_SCOPE), 5))
                .isEqualTo(before);
    }
}
