package dev.clawgate.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.store.StoreException;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite read connections: few, query-only, and keeping their prepared statements within a bound. */
class SqliteReadersTest {
    @TempDir
    Path dir;

    private SqliteReaders readers(String name) {
        try (SqliteDatabase db = SqliteDatabase.open(dir.resolve(name))) {
            db.write("create", tx -> tx.update("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"));
            db.write("row", tx -> tx.update("INSERT INTO t (v) VALUES ('a')"));
        }
        return new SqliteReaders("jdbc:sqlite:" + dir.resolve(name).toAbsolutePath(), 4);
    }

    @Test
    void aReadReusesTheStatementItPreparedBefore() throws Exception {
        // SPEC OP-1: reads keep their prepared statements, as the writer does
        try (SqliteReaders readers = readers("reuse.db")) {
            SqliteReaders.Reader r = readers.acquire();
            String sql = "SELECT v FROM t WHERE id = ?";
            assertThat(new Tx(r.connection(), r.statements()).first(sql, rs -> rs.getString(1), 1L))
                    .contains("a");
            PreparedStatement first = r.statements().get(sql);
            readers.release(r);

            SqliteReaders.Reader again = readers.acquire();
            assertThat(again).isSameAs(r);
            assertThat(new Tx(again.connection(), again.statements()).first(sql, rs -> rs.getString(1), 1L))
                    .contains("a");
            assertThat(again.statements().get(sql)).isSameAs(first);
            assertThat(first.isClosed()).isFalse();
            readers.release(again);
        }
    }

    @Test
    void theStatementCacheKeepsTheMostRecentlyUsedAndClosesTheOthers() throws Exception {
        // SPEC OP-7: every cache has a bound
        try (SqliteReaders readers = readers("bound.db")) {
            SqliteReaders.Reader r = readers.acquire();
            Tx tx = new Tx(r.connection(), r.statements());
            tx.first("SELECT 0", rs -> rs.getInt(1));
            PreparedStatement oldest = r.statements().get("SELECT 0");
            for (int i = 1; i <= SqliteReaders.STATEMENTS; i++) tx.first("SELECT " + i, rs -> rs.getInt(1));
            assertThat(r.statements()).hasSize(SqliteReaders.STATEMENTS).doesNotContainKey("SELECT 0");
            assertThat(oldest.isClosed()).isTrue();
            readers.release(r);
        }
    }

    @Test
    void aFifthReadWaitsUntilOneOfTheFourConnectionsIsReturned() throws Exception {
        // SPEC OP-7: at most four read connections, whatever the number of readers
        try (SqliteReaders readers = readers("four.db")) {
            List<SqliteReaders.Reader> held = new ArrayList<>();
            for (int i = 0; i < 4; i++) held.add(readers.acquire());
            CompletableFuture<SqliteReaders.Reader> fifth = CompletableFuture.supplyAsync(() -> {
                try {
                    return readers.acquire();
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !fifth.isDone());
            readers.release(held.get(2));
            assertThat(fifth.get()).isSameAs(held.get(2));
        }
    }

    @Test
    void aReadConnectionRefusesToWriteAndAClosedStoreRefusesToRead() {
        // SPEC OP-1: writes go through the single writer only
        SqliteDatabase db = SqliteDatabase.open(dir.resolve("query-only.db"));
        db.write("create", tx -> tx.update("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"));
        assertThatThrownBy(() -> db.read("sneaky write", tx -> tx.update("INSERT INTO t (v) VALUES ('x')")))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("sneaky write");
        long rows = db.read(
                "count",
                tx -> tx.first("SELECT COUNT(*) FROM t", rs -> rs.getLong(1)).orElseThrow());
        assertThat(rows).isZero();
        db.close();
        assertThatThrownBy(() -> db.read("late", tx -> tx.first("SELECT 1", rs -> rs.getInt(1))))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void aConnectionReturnedAfterCloseIsClosed() throws Exception {
        SqliteReaders readers = readers("late-return.db");
        SqliteReaders.Reader r = readers.acquire();
        readers.close();
        readers.release(r);
        assertThat(r.connection().isClosed()).isTrue();
    }
}
