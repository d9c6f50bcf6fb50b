package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.MemoryVectors;
import dev.clawgate.core.memory.Vectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The vector half of the memory book (SPEC ME-5, V013); runs on every dialect (OP-1, OP-2). */
abstract class MemoryVectorsContract extends StoreTestBase {
    static final MemoryScope ALICE = MemoryScope.sender("telegram", "alice");
    static final MemoryScope BOB = MemoryScope.sender("telegram", "bob");
    static final String MODEL = "test-model@1";

    Memory memory() {
        return open().memory();
    }

    static float[] v(float... xs) {
        return Vectors.unit(xs);
    }

    @Test
    void aVectorIsKeptWithItsRowAsFloat32BytesWithTheModelId() {
        // SPEC ME-5: a BLOB / bytea of float32 with the model id, in the memory's own row
        Memory memory = memory();
        MemoryEntry e = memory.store(ALICE, "k", "My cat is named Pixel", MemoryEntry.CONVERSATION);
        MemoryVectors.Pending p = memory.vectors().pending(MODEL, 0, 10).getFirst();
        assertThat(p.id()).isEqualTo(e.id());
        assertThat(p.content()).isEqualTo("My cat is named Pixel");

        assertThat(memory.vectors().put(p.id(), p.contentHash(), MODEL, v(3, 4)))
                .isTrue();

        assertThat(value("SELECT embedding_model FROM memories")).isEqualTo(MODEL);
        assertThat(Vectors.fromBytes((byte[]) value("SELECT embedding FROM memories")))
                .containsExactly(0.6f, 0.8f);
        assertThat(memory.vectors().pending(MODEL, 0, 10)).isEmpty();
        assertThat(memory.vectors().progress(MODEL)).isEqualTo(new MemoryVectors.Progress(1, 1));
    }

    @Test
    void nearestIsExactCosineWithinTheAskedScopesOnly() {
        // SPEC ME-2, ME-5: each scope's vectors only, most similar first
        Memory memory = memory();
        embed(memory, ALICE, "a", "alpha", v(1, 0, 0));
        embed(memory, ALICE, "b", "beta", v(1, 1, 0));
        embed(memory, ALICE, "c", "gamma", v(0, 0, 1));
        embed(memory, BOB, "d", "delta", v(1, 0, 0));

        List<MemoryVectors.Similar> near = memory.vectors().nearest(List.of(ALICE), MODEL, v(1, 0.1f, 0), 2);

        assertThat(near).extracting(s -> s.entry().key()).containsExactly("a", "b");
        assertThat(near.getFirst().cosine()).isCloseTo(0.995, within(0.001));
        assertThat(near.getFirst().entry().scope()).isEqualTo(ALICE);
        assertThat(memory.vectors().nearest(List.of(ALICE, BOB), MODEL, v(1, 0, 0), 5))
                .extracting(s -> s.entry().key())
                .startsWith("a", "d")
                .hasSize(4);
    }

    @Test
    void vectorsOfAnotherModelAreNeitherComparedNorCountedAndArePendingAgain() {
        // SPEC ME-5: a model change re-embeds every memory; old vectors are never compared with new ones
        Memory memory = memory();
        embed(memory, ALICE, "a", "alpha", v(1, 0));

        assertThat(memory.vectors().nearest(List.of(ALICE), "other-model", v(1, 0), 5))
                .isEmpty();
        assertThat(memory.vectors().pending("other-model", 0, 10))
                .extracting(MemoryVectors.Pending::content)
                .containsExactly("alpha");
        assertThat(memory.vectors().progress("other-model")).isEqualTo(new MemoryVectors.Progress(1, 0));
    }

    @Test
    void changedContentDropsItsVectorAndAStaleVectorIsRefused() {
        // SPEC ME-5: a vector always belongs to the content it was computed from
        Memory memory = memory();
        embed(memory, ALICE, "a", "alpha", v(1, 0));
        MemoryVectors.Pending before = memory.store(ALICE, "b", "beta", MemoryEntry.CORE) == null
                ? null
                : memory.vectors().pending(MODEL, 0, 10).getFirst();
        memory.store(ALICE, "b", "beta changed", MemoryEntry.CORE);
        memory.store(ALICE, "a", "alpha changed", MemoryEntry.CORE);

        assertThat(memory.vectors().put(before.id(), before.contentHash(), MODEL, v(0, 1)))
                .isFalse();
        assertThat(count("SELECT COUNT(*) FROM memories WHERE embedding IS NOT NULL"))
                .isZero();
        assertThat(memory.vectors().pending(MODEL, 0, 10))
                .extracting(MemoryVectors.Pending::content)
                .containsExactly("alpha changed", "beta changed");
    }

    @Test
    void pendingWalksIdsUpwardsInBoundedBatches() {
        // SPEC ME-5: the back-fill is bounded and resumable (it goes on from the last id it saw)
        Memory memory = memory();
        for (int i = 0; i < 5; i++) memory.store(ALICE, "k" + i, "memory number " + i, MemoryEntry.CORE);
        List<MemoryVectors.Pending> first = memory.vectors().pending(MODEL, 0, 2);
        List<MemoryVectors.Pending> second =
                memory.vectors().pending(MODEL, first.getLast().id(), 2);

        assertThat(first)
                .extracting(MemoryVectors.Pending::content)
                .containsExactly("memory number 0", "memory number 1");
        assertThat(second)
                .extracting(MemoryVectors.Pending::content)
                .containsExactly("memory number 2", "memory number 3");
    }

    @Test
    void pendingIsEveryEntryWithoutAVectorOfTheModelInIdOrderWhateverModelTheOthersHave() {
        // SPEC ME-5: never embedded, embedded by any other model, or changed since: all pending, oldest id first
        Memory memory = memory();
        embed(memory, ALICE, "e0", "current zero", v(1, 0));
        memory.store(ALICE, "e1", "never embedded one", MemoryEntry.CORE);
        embedAs(memory, "old-a", ALICE, "e2", "old a two");
        embed(memory, BOB, "e3", "current three", v(0, 1));
        embedAs(memory, "zz-old-b", BOB, "e4", "old b four");
        memory.store(BOB, "e5", "never embedded five", MemoryEntry.CORE);
        embedAs(memory, "old-a", ALICE, "e6", "old a six");

        assertThat(memory.vectors().pending(MODEL, 0, 10))
                .extracting(MemoryVectors.Pending::content)
                .containsExactly("never embedded one", "old a two", "old b four", "never embedded five", "old a six");
        List<MemoryVectors.Pending> first = memory.vectors().pending(MODEL, 0, 3);
        assertThat(first)
                .extracting(MemoryVectors.Pending::content)
                .containsExactly("never embedded one", "old a two", "old b four");
        assertThat(memory.vectors().pending(MODEL, first.getLast().id(), 3))
                .extracting(MemoryVectors.Pending::content)
                .containsExactly("never embedded five", "old a six");
        assertThat(memory.vectors().pending("old-a", 0, 10))
                .extracting(MemoryVectors.Pending::content)
                .containsExactly(
                        "current zero", "never embedded one", "current three", "old b four", "never embedded five");
    }

    private static void embedAs(Memory memory, String model, MemoryScope scope, String key, String content) {
        MemoryEntry e = memory.store(scope, key, content, MemoryEntry.CORE);
        MemoryVectors.Pending p = memory.vectors().pending(model, e.id() - 1, 1).getFirst();
        assertThat(memory.vectors().put(p.id(), p.contentHash(), model, v(1, 1)))
                .isTrue();
    }

    @Test
    void pastAnnThresholdAnApproximateIndexAnswersAsTheExactScanDoesWithinTheAskedScopes() {
        // SPEC ME-5: exact cosine while a scope's rows are few, an HNSW index past memory.ann_threshold; ME-2: scopes
        Memory memory = memory();
        float[][] alice = ApproximateRecallTest.clustered(new java.util.Random(5), 120, 16, 6);
        ApproximateRecallTest.embedAll(memory, ALICE, "a", alice);
        embed(memory, BOB, "b", "bob's", v(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        var vectors = (dev.clawgate.store.internal.JdbcMemoryVectors) memory.vectors();
        float[] q = alice[0];
        List<MemoryVectors.Similar> exact = vectors.nearest(List.of(ALICE, BOB), MODEL, q, 5, Integer.MAX_VALUE);

        assertThat(vectors.nearest(List.of(ALICE, BOB), MODEL, q, 5, 100)).isEqualTo(exact);
        ApproximateRecallTest.awaitIndex(vectors, ALICE, 100);
        assertThat(vectors.nearest(List.of(ALICE, BOB), MODEL, q, 5, 100)).isEqualTo(exact);
        assertThat(vectors.approximate(BOB, MODEL, 100)).isFalse();
        assertThat(vectors.nearest(List.of(BOB), MODEL, q, 5, 100))
                .extracting(s -> s.entry().key())
                .containsExactly("b");
    }

    @Test
    void scopesPastAnnThresholdAreCountedAndIndexedInTheBackgroundWithoutARecall() {
        // SPEC ME-5: at gateway start the scopes already past memory.ann_threshold get their indexes; the count and the
        // vectors' dimensions come from the store (SQLite BLOB, PostgreSQL bytea)
        Memory memory = memory();
        ApproximateRecallTest.embedAll(
                memory, ALICE, "a", ApproximateRecallTest.clustered(new java.util.Random(8), 110, 16, 6));
        embed(memory, BOB, "b", "bob's", v(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        var vectors = (dev.clawgate.store.internal.JdbcMemoryVectors) memory.vectors();
        assertThat(vectors.largeScopes(MODEL, 100))
                .containsExactly(new MemoryVectors.LargeScope(ALICE.id(), 110, MemoryVectors.Search.EXACT_NOT_BUILT));

        vectors.indexLargeScopes(MODEL, 100);
        ApproximateRecallTest.awaitIndex(vectors, ALICE, 100);
        assertThat(vectors.largeScopes(MODEL, 100))
                .containsExactly(new MemoryVectors.LargeScope(ALICE.id(), 110, MemoryVectors.Search.INDEX_READY));
        assertThat(vectors.largeScopes(MODEL, 1))
                .extracting(MemoryVectors.LargeScope::scope, MemoryVectors.LargeScope::vectors)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(ALICE.id(), 110L),
                        org.assertj.core.groups.Tuple.tuple(BOB.id(), 1L));
    }

    private static void embed(Memory memory, MemoryScope scope, String key, String content, float[] vector) {
        MemoryEntry e = memory.store(scope, key, content, MemoryEntry.CORE);
        MemoryVectors.Pending p = memory.vectors().pending(MODEL, e.id() - 1, 1).getFirst();
        assertThat(memory.vectors().put(p.id(), p.contentHash(), MODEL, vector)).isTrue();
    }
}
