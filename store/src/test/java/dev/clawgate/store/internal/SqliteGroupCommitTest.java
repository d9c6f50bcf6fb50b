package dev.clawgate.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.store.StoreException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite writer's group commit: shared commits, separate failures, every caller sees its own commit. */
class SqliteGroupCommitTest {
    @TempDir
    Path dir;

    private static long count(SqliteDatabase db) {
        return db.read(
                "count",
                tx -> tx.first("SELECT COUNT(*) FROM t", rs -> rs.getLong(1)).orElseThrow());
    }

    @Test
    void concurrentWritesAllCommitAndEachCallerSeesItsOwnRowAfterward() throws Exception {
        // SPEC IN-4, OUT-5, OP-1: group commit may batch writes; none is lost and each caller returns only once its
        // write committed
        try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("g.db"))) {
            db.write("create", tx -> tx.update("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"));
            int threads = 16, each = 200;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> done = new ArrayList<>();
            AtomicInteger seenOwn = new AtomicInteger();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < each; i++) {
                        String v = thread + ":" + i;
                        db.write("insert", tx -> tx.update("INSERT INTO t (v) VALUES (?)", v));
                        // committed on return: a separate read connection sees it
                        if (db.read("own", tx -> tx.first("SELECT 1 FROM t WHERE v = ?", rs -> 1, v))
                                .isPresent()) seenOwn.incrementAndGet();
                    }
                    return each;
                }));
            }
            go.countDown();
            for (Future<Integer> f : done) f.get();
            pool.shutdown();
            assertThat(count(db)).isEqualTo((long) threads * each);
            assertThat(seenOwn.get()).isEqualTo(threads * each);
        }
    }

    @Test
    void aFailingWorkRollsBackOnlyItselfAndItsCallerGetsTheError() throws Exception {
        // SPEC OP-1: one failing write in a group does not take its neighbours' writes down with it
        try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("f.db"))) {
            db.write("create", tx -> tx.update("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)"));
            int threads = 8;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<String>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    go.await();
                    try {
                        db.write("insert", tx -> {
                            tx.update("INSERT INTO t (v) VALUES (?)", "row-" + thread);
                            // odd threads break after writing: their row must not survive
                            if (thread % 2 == 1) tx.update("INSERT INTO t (v) VALUES (?)", "row-" + thread);
                            return null;
                        });
                        return "ok";
                    } catch (StoreException e) {
                        return "failed";
                    }
                }));
            }
            go.countDown();
            List<String> outcomes = new ArrayList<>();
            for (Future<String> f : results) outcomes.add(f.get());
            pool.shutdown();
            assertThat(outcomes).containsExactly("ok", "failed", "ok", "failed", "ok", "failed", "ok", "failed");
            List<String> rows = db.read("rows", tx -> tx.list("SELECT v FROM t ORDER BY v", rs -> rs.getString(1)));
            assertThat(rows).containsExactly("row-0", "row-2", "row-4", "row-6");
        }
    }

    @Test
    void aRuntimeExceptionOfTheWorkComesOutAsItIs() {
        // SPEC OP-1: the caller sees its own error, not a wrapper from the group
        try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("r.db"))) {
            db.write("create", tx -> tx.update("CREATE TABLE t (v TEXT)"));
            assertThatThrownBy(() -> db.write("bad", tx -> {
                        tx.update("INSERT INTO t (v) VALUES ('x')");
                        throw new IllegalArgumentException("no such entry");
                    }))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("no such entry");
            assertThat(count(db)).isZero();
        }
    }
}
