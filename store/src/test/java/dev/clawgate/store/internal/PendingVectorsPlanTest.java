package dev.clawgate.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 27: the memory indexer asks what is pending after every turn, so each statement of
 * {@link JdbcMemoryVectors#pending} reads a range of V017's index, never every memory (SPEC ME-5's back-fill stays off
 * the reply path's CPU too).
 */
class PendingVectorsPlanTest {
    @TempDir
    Path dir;

    private SqliteDatabase db;

    @BeforeEach
    void open() {
        db = SqliteDatabase.open(dir.resolve("clawgate.db"));
        Migrations.schema().apply(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                JdbcMemoryVectors.PENDING_UNEMBEDDED,
                JdbcMemoryVectors.PENDING_OF_MODEL,
                JdbcMemoryVectors.FIRST_MODEL,
                JdbcMemoryVectors.NEXT_MODEL
            })
    void everyPendingStatementSearchesTheModelIndexAndSortsNothing(String sql) {
        int params = (int) sql.chars().filter(c -> c == '?').count();
        Object[] values = new Object[params];
        for (int i = 0; i < params; i++) values[i] = i == 0 && sql.contains("embedding_model = ?") ? "m" : 1L;
        if (sql.contains("embedding_model > ?")) values[0] = "m";
        List<String> plan = db.read("plan", tx -> tx.list("EXPLAIN QUERY PLAN " + sql, rs -> rs.getString(4), values));

        assertThat(plan)
                .singleElement()
                .asString()
                .startsWith("SEARCH memories USING")
                .contains("memories_embedding_model");
    }
}
