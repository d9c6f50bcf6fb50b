package dev.clawgate.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.MemoryVectors;
import dev.clawgate.core.memory.MemoryVectors.LargeScope;
import dev.clawgate.core.memory.MemoryVectors.Search;
import dev.clawgate.core.memory.Vectors;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The approximate indexes of the scopes already past {@code memory.ann_threshold} at gateway start (SPEC ME-5): built
 * in the background before any recall, the exact scan serving until each is ready, and a scope whose index would not
 * fit its share of the heap scanned exactly for good. The builds run on an executor the test steps by hand.
 */
class LargeScopeIndexTest {
    static final MemoryScope ALICE = MemoryScope.sender("telegram", "alice");
    static final MemoryScope BOB = MemoryScope.sender("telegram", "bob");
    static final String MODEL = "test-model@1";
    static final int DIMS = 16;
    static final int THRESHOLD = 100;

    @TempDir
    Path dir;

    private SqliteDatabase db;
    private final Queue<Runnable> queued = new ArrayDeque<>();
    private final Executor stepped = queued::add;
    private final Random rnd = new Random(5);

    @BeforeEach
    void open() {
        db = SqliteDatabase.open(dir.resolve("clawgate.db"));
        Migrations.schema().apply(db);
        JdbcMemory memory = new JdbcMemory(db, Clock.systemUTC());
        embed(memory, ALICE, "a", 150);
        embed(memory, BOB, "b", 20);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private void embed(JdbcMemory memory, MemoryScope scope, String prefix, int n) {
        for (int i = 0; i < n; i++) {
            MemoryEntry e = memory.store(scope, prefix + i, prefix + " memory " + i, MemoryEntry.CORE);
            MemoryVectors.Pending p =
                    memory.vectors().pending(MODEL, e.id() - 1, 1).getFirst();
            assertThat(memory.vectors().put(p.id(), p.contentHash(), MODEL, vector()))
                    .isTrue();
        }
    }

    private float[] vector() {
        float[] v = new float[DIMS];
        for (int d = 0; d < DIMS; d++) v[d] = (float) rnd.nextGaussian();
        return Vectors.unit(v);
    }

    private static List<Long> ids(List<MemoryVectors.Similar> hits) {
        return hits.stream().map(s -> s.entry().id()).toList();
    }

    private int runQueued() {
        int n = 0;
        for (Runnable r; (r = queued.poll()) != null; n++) r.run();
        return n;
    }

    @Test
    void scopesAlreadyPastTheThresholdAreIndexedInTheBackgroundBeforeAnyRecall() {
        // SPEC ME-5: the index of a large scope is built from the start, off the caller's thread; exact until ready
        JdbcMemoryVectors vectors = new JdbcMemoryVectors(db, stepped, () -> Long.MAX_VALUE);
        assertThat(vectors.largeScopes(MODEL, THRESHOLD))
                .containsExactly(new LargeScope(ALICE.id(), 150, Search.EXACT_NOT_BUILT));

        vectors.indexLargeScopes(MODEL, THRESHOLD);
        assertThat(queued).hasSize(1); // nothing was counted or built on the caller's thread
        queued.poll().run(); // counts the scopes, asks for ALICE's build
        assertThat(queued).hasSize(1);
        assertThat(vectors.largeScopes(MODEL, THRESHOLD))
                .containsExactly(new LargeScope(ALICE.id(), 150, Search.INDEX_BUILDING));
        float[] q = vector();
        assertThat(vectors.approximate(ALICE, MODEL, THRESHOLD)).isFalse();
        assertThat(ids(vectors.nearest(List.of(ALICE, BOB), MODEL, q, 8, THRESHOLD)))
                .isEqualTo(ids(vectors.nearest(List.of(ALICE, BOB), MODEL, q, 8, Integer.MAX_VALUE)));

        assertThat(runQueued()).isEqualTo(1); // the build; the recall meanwhile asked for no second one
        assertThat(vectors.approximate(ALICE, MODEL, THRESHOLD)).isTrue();
        assertThat(vectors.approximate(BOB, MODEL, THRESHOLD)).isFalse();
        assertThat(vectors.largeScopes(MODEL, THRESHOLD))
                .containsExactly(new LargeScope(ALICE.id(), 150, Search.INDEX_READY));
        assertThat(vectors.largeScopes(MODEL, 10))
                .containsExactly(
                        new LargeScope(ALICE.id(), 150, Search.INDEX_READY),
                        new LargeScope(BOB.id(), 20, Search.EXACT_NOT_BUILT));
        assertThat(vectors.largeScopes("other-model@1", THRESHOLD)).isEmpty();
    }

    @Test
    void theDefaultBuilderIndexesLargeScopesWithoutARecall() {
        // SPEC ME-5: the gateway's own builder thread, at low priority
        JdbcMemoryVectors vectors = new JdbcMemoryVectors(db);
        vectors.indexLargeScopes(MODEL, THRESHOLD);
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(60))
                .until(() -> vectors.approximate(ALICE, MODEL, THRESHOLD));
        assertThat(vectors.largeScopes(MODEL, THRESHOLD))
                .containsExactly(new LargeScope(ALICE.id(), 150, Search.INDEX_READY));
    }

    @Test
    void aScopeWhoseIndexWouldNotFitItsShareOfTheHeapIsScannedExactly() {
        // SPEC ME-5, OP-7: an index must never run the gateway out of heap; past the budget the scope is scanned
        long oneVector = VectorIndexes.bytesPerVector(DIMS);
        JdbcMemoryVectors vectors = new JdbcMemoryVectors(db, stepped, () -> 149 * oneVector);
        assertThat(vectors.largeScopes(MODEL, THRESHOLD))
                .containsExactly(new LargeScope(ALICE.id(), 150, Search.EXACT_TOO_LARGE));

        vectors.indexLargeScopes(MODEL, THRESHOLD);
        assertThat(runQueued()).isEqualTo(1); // the count only: no build was started
        float[] q = vector();
        for (int i = 0; i < 3; i++) {
            assertThat(ids(vectors.nearest(List.of(ALICE), MODEL, q, 8, THRESHOLD)))
                    .isEqualTo(ids(vectors.nearest(List.of(ALICE), MODEL, q, 8, Integer.MAX_VALUE)))
                    .hasSize(8);
            assertThat(runQueued()).isZero(); // nor by a recall that finds the scope past the threshold
        }
        assertThat(vectors.approximate(ALICE, MODEL, THRESHOLD)).isFalse();
        assertThat(vectors.largeScopes(MODEL, THRESHOLD))
                .containsExactly(new LargeScope(ALICE.id(), 150, Search.EXACT_TOO_LARGE));

        // one vector more of budget and the same scope is indexed
        JdbcMemoryVectors roomier = new JdbcMemoryVectors(db, stepped, () -> 150 * oneVector);
        roomier.nearest(List.of(ALICE), MODEL, q, 8, THRESHOLD);
        assertThat(runQueued()).isEqualTo(1);
        assertThat(roomier.approximate(ALICE, MODEL, THRESHOLD)).isTrue();
    }
}
