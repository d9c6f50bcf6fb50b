package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.memory.HybridHit;
import dev.clawgate.core.memory.HybridMemory;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryIndexer;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hybrid recall over the real store (SPEC ME-2, ME-3, ME-5), with a small embedder whose meaning is known: each word
 * maps to a concept, so a paraphrase lands on its memory's vector without sharing a word.
 */
class HybridRecallTest extends StoreTestBase {
    static final MemoryScope ALICE = MemoryScope.sender("telegram", "alice");
    static final MemoryScope BOB = MemoryScope.sender("telegram", "bob");

    @TempDir
    Path dir;

    @Override
    protected StoreBackend backend() {
        return new SqliteBackend(dir.resolve("clawgate.db"));
    }

    /** Concepts: child, school, begin, city, deploy, weekday; every text also gets a little of a shared axis. */
    static class ConceptEmbedder implements Embedder {
        static final Map<String, Integer> CONCEPTS = Map.ofEntries(
                Map.entry("daughter", 0),
                Map.entry("kid", 0),
                Map.entry("child", 0),
                Map.entry("mia", 0),
                Map.entry("school", 1),
                Map.entry("term", 1),
                Map.entry("class", 1),
                Map.entry("starts", 2),
                Map.entry("begin", 2),
                Map.entry("start", 2),
                Map.entry("lisbon", 3),
                Map.entry("deploy", 4),
                Map.entry("release", 4),
                Map.entry("ship", 4),
                Map.entry("tuesday", 5),
                Map.entry("weekday", 5));
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public String modelId() {
            return "concepts@1";
        }

        @Override
        public int dimensions() {
            return 7;
        }

        @Override
        public float[] embed(String text) {
            calls.incrementAndGet();
            float[] v = new float[7];
            v[6] = 0.3f;
            for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
                Integer c = CONCEPTS.get(w);
                if (c != null) v[c] += 1;
            }
            return v;
        }
    }

    HybridMemory hybrid(Memory memory, Embedder e, double weight) {
        MemorySettings cfg = MemorySettings.defaults().withEmbedding(new EmbeddingSettings("local", null, weight, 25));
        return new HybridMemory(memory, e, () -> cfg);
    }

    static void index(Memory memory, Embedder e) {
        new MemoryIndexer(memory.vectors(), e, 2, Duration.ofMinutes(1)).indexPending();
    }

    @Test
    void aParaphraseWithNoSharedWordIsRecalledAboveMinRelevance() {
        // SPEC ME-5: the anchor's example; ME-3: the fused score is on min_relevance's [0, 1] scale
        Memory memory = open().memory();
        ConceptEmbedder e = new ConceptEmbedder();
        memory.store(ALICE, "mia", "My daughter Mia starts school in Lisbon", MemoryEntry.CONVERSATION);
        memory.store(ALICE, "deploy", "We deploy on Tuesday", MemoryEntry.CONVERSATION);
        index(memory, e);

        List<Recalled> keywordOnly = memory.recall("when does my kid's term begin?", List.of(ALICE), 5);
        List<Recalled> hybrid = hybrid(memory, e, 0.5).recall("when does my kid's term begin?", List.of(ALICE), 5);

        assertThat(keywordOnly).isEmpty();
        assertThat(hybrid).extracting(r -> r.entry().key()).first().isEqualTo("mia");
        assertThat(hybrid.getFirst().score())
                .isGreaterThanOrEqualTo(MemorySettings.defaults().minRelevance());
    }

    @Test
    void explainShowsEachHalfAndAMemoryFoundByItsWordsKeepsItsKeywordScore() {
        // SPEC ME-5: keyword rank, vector similarity and fused score of each hit; ME-3: exact words never score lower
        // than they did by keyword alone
        Memory memory = open().memory();
        ConceptEmbedder e = new ConceptEmbedder();
        memory.store(ALICE, "deploy", "We deploy on Tuesday", MemoryEntry.CONVERSATION);
        memory.store(ALICE, "release", "Release trains ship weekly", MemoryEntry.CONVERSATION);
        index(memory, e);

        List<HybridHit> hits = hybrid(memory, e, 0.5).explain("when do we deploy, on which day?", List.of(ALICE), 5);

        assertThat(hits).hasSize(2).allSatisfy(h -> assertThat(h.hasVector()).isTrue());
        HybridHit deploy = hits.stream()
                .filter(h -> h.entry().key().equals("deploy"))
                .findFirst()
                .orElseThrow();
        assertThat(deploy.keywordRank()).isEqualTo(1);
        assertThat(deploy.score()).isGreaterThanOrEqualTo(deploy.keywordScore()).isGreaterThan(0.4);
        HybridHit release = hits.stream()
                .filter(h -> h.entry().key().equals("release"))
                .findFirst()
                .orElseThrow();
        assertThat(release.keywordRank()).isZero();
        assertThat(release.cosine()).isGreaterThan(deploy.cosine());
        assertThat(release.score()).isGreaterThan(0.4);
    }

    @Test
    void aNearMissFarBelowTheQuerysBestMatchIsNotInjected() {
        // SPEC ME-3, ME-7: a memory of the same kind but another subject stays under min_relevance; the vector half
        // counts only within a third of the calibrated range of the best cosine
        Memory memory = open().memory();
        ConceptEmbedder e = new ConceptEmbedder();
        memory.store(ALICE, "mia", "Mia starts school in Lisbon", MemoryEntry.CONVERSATION);
        memory.store(ALICE, "class", "The class on Tuesday", MemoryEntry.CONVERSATION);
        index(memory, e);

        List<HybridHit> hits = hybrid(memory, e, 0.5).explain("my kid and her term begin", List.of(ALICE), 5);

        assertThat(hits.getFirst().entry().key()).isEqualTo("mia");
        assertThat(hits.getFirst().score()).isGreaterThanOrEqualTo(0.4);
        HybridHit near = hits.stream()
                .filter(h -> h.entry().key().equals("class"))
                .findFirst()
                .orElseThrow();
        assertThat(near.cosine()).isGreaterThan(0.3).isLessThan(hits.getFirst().cosine() - 0.14);
        assertThat(near.score()).isLessThan(0.4);
    }

    @Test
    void aMemoryNotEmbeddedYetIsStillFoundByKeyword() {
        // SPEC ME-5: vectors are written later, off the reply path; until then keyword recall finds the memory
        Memory memory = open().memory();
        ConceptEmbedder e = new ConceptEmbedder();
        memory.store(ALICE, "deploy", "We deploy on Tuesday evenings", MemoryEntry.CONVERSATION);

        List<HybridHit> hits = hybrid(memory, e, 0.5).explain("when do we deploy these days?", List.of(ALICE), 5);

        assertThat(hits).singleElement().satisfies(h -> {
            assertThat(h.hasVector()).isFalse();
            assertThat(h.score()).isEqualTo(h.keywordScore());
        });
    }

    @Test
    void theQueryIsEmbeddedOncePerTextAndNotAtAllWhenShorterThanTheAutoSaveThreshold() {
        // SPEC ME-5: once per turn (two scope sets, one embedding), only for messages long enough to recall
        Memory memory = open().memory();
        ConceptEmbedder e = new ConceptEmbedder();
        memory.store(ALICE, "mia", "My daughter Mia starts school in Lisbon", MemoryEntry.CONVERSATION);
        index(memory, e);
        int afterIndex = e.calls.get();
        HybridMemory h = hybrid(memory, e, 0.5);

        h.recall("when does my kid's term begin?", List.of(ALICE, MemoryScope.global()), 5);
        h.recall("when does my kid's term begin?", List.of(BOB), 5);
        h.recall("kid's term?", List.of(ALICE), 5);

        assertThat(e.calls.get() - afterIndex).isEqualTo(1);
        assertThat(h.queriesEmbedded()).isEqualTo(1);
    }

    @Test
    void vectorRecallStaysInsideTheAskedScopes() {
        // SPEC ME-2: another sender's memory is not recalled, however close its vector
        Memory memory = open().memory();
        ConceptEmbedder e = new ConceptEmbedder();
        memory.store(BOB, "mia", "My daughter Mia starts school in Lisbon", MemoryEntry.CONVERSATION);
        index(memory, e);

        assertThat(hybrid(memory, e, 0.5).recall("when does my kid's term begin?", List.of(ALICE), 5))
                .isEmpty();
    }

    @Test
    void weightZeroIsKeywordOnlyAndWeightOneVectorOnly() {
        // SPEC ME-5: memory.vector_weight moves between the halves
        Memory memory = open().memory();
        ConceptEmbedder e = new ConceptEmbedder();
        memory.store(ALICE, "mia", "My daughter Mia starts school in Lisbon", MemoryEntry.CONVERSATION);
        index(memory, e);

        assertThat(hybrid(memory, e, 0).recall("when does my kid's term begin?", List.of(ALICE), 5))
                .isEmpty();
        assertThat(hybrid(memory, e, 1).explain("which school does Mia go to?", List.of(ALICE), 5))
                .singleElement()
                .satisfies(h -> assertThat(h.keywordRank()).isZero());
    }

    @Test
    void aModelChangeReEmbedsEveryMemory() {
        // SPEC ME-5: vectors carry their model id; the indexer of a new model replaces them all
        Memory memory = open().memory();
        memory.store(ALICE, "mia", "My daughter Mia starts school in Lisbon", MemoryEntry.CONVERSATION);
        memory.store(ALICE, "deploy", "We deploy on Tuesday", MemoryEntry.CONVERSATION);
        index(memory, new ConceptEmbedder());
        ConceptEmbedder next = new ConceptEmbedder() {
            @Override
            public String modelId() {
                return "concepts@2";
            }
        };

        assertThat(new MemoryIndexer(memory.vectors(), next, 1, Duration.ofMinutes(1)).indexPending())
                .isEqualTo(2);
        assertThat(rows("SELECT DISTINCT embedding_model FROM memories")).containsExactly(List.of("concepts@2"));
    }

    @Test
    void aMemoryWhoseTextWasJustAQueryTakesTheQuerysVectorInsteadOfEmbeddingItAgain() {
        // SPEC ME-5: an auto-saved message is its turn's query; the model runs once for that text, and the stored
        // vector
        // is the one the model gives (the next recall finds it by meaning)
        Memory memory = open().memory();
        ConceptEmbedder e = new ConceptEmbedder();
        HybridMemory h = hybrid(memory, e, 0.5);
        String said = "  My daughter Mia starts school in Lisbon  ";
        h.recall(said, List.of(ALICE), 5);
        memory.store(ALICE, "mia", said.strip(), MemoryEntry.CONVERSATION);
        memory.store(ALICE, "deploy", "We deploy on Tuesday", MemoryEntry.CONVERSATION);
        int beforeIndex = e.calls.get();

        MemoryIndexer indexer = new MemoryIndexer(memory.vectors(), e, 8, Duration.ofMinutes(1), h::knownEmbedding);
        assertThat(indexer.indexPending()).isEqualTo(2);

        assertThat(e.calls.get() - beforeIndex)
                .as("only the memory that was no query is embedded")
                .isEqualTo(1);
        assertThat(indexer.stats().reused()).isEqualTo(1);
        assertThat(indexer.stats().embedded()).isEqualTo(2);
        assertThat(hybrid(memory, e, 1).recall("when does my kid's term begin?", List.of(ALICE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("mia");
    }
}
