package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.memory.MemoryEntry;
import java.nio.file.Path;
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

        assertThat(rows("SELECT f.rowid, f.terms FROM memory_fts f ORDER BY f.rowid"))
                .containsExactlyElementsOf(rows("SELECT id, terms FROM memories ORDER BY id"));
        assertThat(count("SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH 'kite'")).isZero();
        assertThat(count("SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH 'train'")).isEqualTo(1);
    }
}
