package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.memory.Relevance;
import dev.clawgate.core.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The memory half of the Store contract (SPEC ME-1..ME-3, ME-7); runs on every dialect. */
abstract class MemoryContract extends StoreTestBase {

    static final MemoryScope ALICE_SCOPE = MemoryScope.sender("telegram", "alice");
    static final MemoryScope BOB_SCOPE = MemoryScope.sender("telegram", "bob");

    Memory memory() {
        return open().memory();
    }

    @Test
    void aStoredMemoryIsOneRowWithItsScopeKeyHashAndIndexedTerms() {
        // SPEC ME-1, ME-7: rows carry the scope, the key, a content hash and the searchable terms
        Memory memory = memory();
        Instant now = clock.instant();
        MemoryEntry e =
                memory.store(ALICE_SCOPE, "telegram_alice_m1", "  My cat is named Pixel  ", MemoryEntry.CONVERSATION);

        assertThat(e.content()).isEqualTo("My cat is named Pixel");
        assertThat(e.createdAt()).isEqualTo(now);
        assertThat(rows("SELECT scope, mkey, content, category, terms, term_count, created_at, updated_at "
                        + "FROM memories"))
                .containsExactly(List.of(
                        "sender|=telegram|=alice",
                        "telegram_alice_m1",
                        "My cat is named Pixel",
                        "conversation",
                        "cat named pixel",
                        3L,
                        now.toEpochMilli(),
                        now.toEpochMilli()));
        assertThat((String) value("SELECT content_hash FROM memories")).hasSize(64);
        assertThat(memory.get(ALICE_SCOPE, "telegram_alice_m1")).contains(e);
    }

    @Test
    void identicalContentIsStoredOnceWhateverItsKey() {
        // SPEC ME-7: identical memories are stored once (content hash)
        Memory memory = memory();
        MemoryEntry first = memory.store(ALICE_SCOPE, "k1", "The deploy window is Tuesday", MemoryEntry.CORE);
        clock.advance(Duration.ofMinutes(5));
        MemoryEntry second = memory.store(ALICE_SCOPE, "k2", "The deploy window is Tuesday", MemoryEntry.CORE);

        assertThat(second.id()).isEqualTo(first.id());
        assertThat(second.key()).isEqualTo("k1");
        assertThat(second.updatedAt()).isEqualTo(clock.instant());
        assertThat(rows("SELECT mkey, updated_at FROM memories"))
                .containsExactly(List.of("k1", clock.instant().toEpochMilli()));
        // another scope is another memory
        memory.store(BOB_SCOPE, "k1", "The deploy window is Tuesday", MemoryEntry.CORE);
        assertThat(count("SELECT COUNT(*) FROM memories")).isEqualTo(2);
    }

    @Test
    void storingUnderAUsedKeyReplacesTheContentAndItsIndex() {
        // SPEC AG-5 memory_store: a key names one memory in its scope
        Memory memory = memory();
        Instant created = clock.instant();
        memory.store(ALICE_SCOPE, "colour", "Alice likes teal", MemoryEntry.CORE);
        clock.advance(Duration.ofMinutes(1));
        MemoryEntry e = memory.store(ALICE_SCOPE, "colour", "Alice likes orange", MemoryEntry.CORE);

        assertThat(e.createdAt()).isEqualTo(created);
        assertThat(rows("SELECT mkey, content, created_at, updated_at FROM memories"))
                .containsExactly(List.of(
                        "colour",
                        "Alice likes orange",
                        created.toEpochMilli(),
                        clock.instant().toEpochMilli()));
        assertThat(memory.recall("teal", List.of(ALICE_SCOPE), 5)).isEmpty();
        assertThat(memory.recall("orange", List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("colour");
    }

    @Test
    void recallRanksBySharedTermsWithScoresBetweenZeroAndOne() {
        // SPEC ME-3: scores are normalised to [0, 1]; every query term at about average length scores near 1
        Memory memory = memory();
        memory.store(ALICE_SCOPE, "m1", "My cat is named Pixel and she loves tuna", MemoryEntry.CONVERSATION);
        memory.store(ALICE_SCOPE, "m2", "The cat next door is loud", MemoryEntry.CONVERSATION);
        memory.store(ALICE_SCOPE, "m3", "Deploys happen on Tuesday afternoons", MemoryEntry.CONVERSATION);

        List<Recalled> found = memory.recall("What is my cat named?", List.of(ALICE_SCOPE), 5);

        assertThat(found).extracting(r -> r.entry().key()).containsExactly("m1", "m2");
        assertThat(found.get(0).score()).isGreaterThan(0.9).isLessThanOrEqualTo(1.0);
        assertThat(found.get(1).score()).isStrictlyBetween(0.0, 0.4);
        // the same numbers on every dialect: the store only counts, Relevance scores
        var corpus = new Relevance.Corpus(3, (5 + 4 + 4) / 3.0, Map.of("cat", 2L, "named", 1L));
        List<String> query = List.of("cat", "named");
        assertThat(found.get(0).score())
                .isCloseTo(
                        Relevance.score(query, List.of("cat", "named", "pixel", "love", "tuna"), corpus),
                        within(1e-12));
        assertThat(found.get(1).score())
                .isCloseTo(Relevance.score(query, List.of("cat", "next", "door", "loud"), corpus), within(1e-12));
    }

    @Test
    void recallReadsOnlyTheGivenScopesAndHonoursTheLimit() {
        // SPEC ME-2: recall is per scope
        Memory memory = memory();
        memory.store(ALICE_SCOPE, "a1", "Alice keeps bees on the roof", MemoryEntry.CONVERSATION);
        memory.store(BOB_SCOPE, "b1", "Bob keeps bees in the garden", MemoryEntry.CONVERSATION);
        memory.store(MemoryScope.global(), "g1", "The office bees swarmed in May", MemoryEntry.CORE);

        assertThat(memory.recall("bees", List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("a1");
        assertThat(memory.recall("bees", List.of(ALICE_SCOPE, MemoryScope.global()), 5))
                .extracting(r -> r.entry().key())
                .containsExactlyInAnyOrder("a1", "g1");
        assertThat(memory.recall("bees", List.of(ALICE_SCOPE, BOB_SCOPE, MemoryScope.global()), 2))
                .hasSize(2);
        assertThat(memory.recall("bees", List.of(), 5)).isEmpty();
    }

    @Test
    void otherScopesHoldingTheSameWordsChangeNeitherTheResultNorItsScores() {
        // SPEC ME-2, ME-3: recall counts and scores within the given scopes only
        Memory memory = memory();
        memory.store(ALICE_SCOPE, "a1", "My cat is named Pixel and she loves tuna", MemoryEntry.CONVERSATION);
        memory.store(ALICE_SCOPE, "a2", "The cat next door is loud", MemoryEntry.CONVERSATION);
        memory.store(ALICE_SCOPE, "a3", "Deploys happen on Tuesday afternoons", MemoryEntry.CONVERSATION);
        memory.store(MemoryScope.global(), "g1", "Office rules: no cat in the kitchen", MemoryEntry.CORE);
        List<MemoryScope> scopes = List.of(ALICE_SCOPE, MemoryScope.global());
        List<Recalled> alone = memory.recall("What is my cat named?", scopes, 5);

        for (int i = 0; i < 40; i++) {
            memory.store(BOB_SCOPE, "b" + i, "Bob's cat number " + i + " is named Pixel too", MemoryEntry.CONVERSATION);
            memory.store(MemoryScope.sender("slack", "carol"), "c" + i, "cat cat named " + i, MemoryEntry.CONVERSATION);
        }
        List<Recalled> crowded = memory.recall("What is my cat named?", scopes, 5);

        assertThat(alone).extracting(r -> r.entry().key()).containsExactly("a1", "a2", "g1");
        assertThat(alone)
                .allSatisfy(r -> assertThat(r.score()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0));
        assertThat(crowded).isEqualTo(alone);
        // and the other scopes' recall is as much their own
        List<Recalled> bobs = memory.recall("Pixel named", List.of(BOB_SCOPE), 50);
        assertThat(bobs).hasSize(40).allSatisfy(r -> {
            assertThat(r.entry().scope()).isEqualTo(BOB_SCOPE);
            assertThat(r.score()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
        });
    }

    @Test
    void scoresUseTheScopesCountsAlsoWhenMoreEntriesMatchThanAreRanked() {
        // SPEC ME-3: with more matches than candidates, the per-term counts are still all of the scopes' entries
        Memory memory = memory();
        for (int i = 0; i < 40; i++) {
            memory.store(ALICE_SCOPE, "c" + i, "cat sighting " + i + " today", MemoryEntry.CONVERSATION);
        }
        memory.store(ALICE_SCOPE, "p", "cat named Pixel", MemoryEntry.CONVERSATION);
        memory.store(BOB_SCOPE, "b", "my cat is named Pixel too", MemoryEntry.CONVERSATION);

        List<Recalled> found = memory.recall("cat named", List.of(ALICE_SCOPE), 1);

        long totalTerms = 40 * 4 + 3;
        var corpus = new Relevance.Corpus(41, totalTerms / 41.0, Map.of("cat", 41L, "named", 1L));
        assertThat(found).extracting(r -> r.entry().key()).containsExactly("p");
        assertThat(found.getFirst().score())
                .isCloseTo(
                        Relevance.score(List.of("cat", "named"), List.of("cat", "named", "pixel"), corpus),
                        within(1e-12));
    }

    @Test
    void aGreetingOrPunctuationRecallsNothing() {
        // SPEC ME-7: a greeting is not answered with memories
        Memory memory = memory();
        memory.store(ALICE_SCOPE, "m1", "hi there, I am planning a trip to Lisbon", MemoryEntry.CONVERSATION);

        assertThat(memory.recall("hi", List.of(ALICE_SCOPE), 5)).isEmpty();
        assertThat(memory.recall("Hello!! how are you?", List.of(ALICE_SCOPE), 5))
                .isEmpty();
        assertThat(memory.recall("?!…", List.of(ALICE_SCOPE), 5)).isEmpty();
    }

    @Test
    void queryTextIsNeverParsedAsSearchSyntax() {
        // SPEC ME-5: the full-text query is built from terms, so operators and quotes in the user's text are plain
        // words
        Memory memory = memory();
        memory.store(ALICE_SCOPE, "m1", "Lisbon trip NEAR the coast", MemoryEntry.CONVERSATION);

        for (String q : List.of(
                "\"lisbon",
                "lisbon AND NOT*",
                "lisbon | coast & !x",
                "lisbon:* (coast",
                "'; DROP TABLE memories; --")) {
            assertThat(memory.recall(q, List.of(ALICE_SCOPE), 5))
                    .as(q)
                    .allSatisfy(r -> assertThat(r.entry().key()).isEqualTo("m1"));
        }
        assertThat(memory.recall("LISBÓN", List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("m1");
    }

    @Test
    void forgetRemovesTheEntryFromRowsAndRecall() {
        // SPEC AG-5 memory_forget
        Memory memory = memory();
        memory.store(ALICE_SCOPE, "m1", "Alice is allergic to peanuts", MemoryEntry.CORE);

        assertThat(memory.forget(BOB_SCOPE, "m1")).isFalse();
        assertThat(memory.forget(ALICE_SCOPE, "m1")).isTrue();
        assertThat(memory.forget(ALICE_SCOPE, "m1")).isFalse();
        assertThat(count("SELECT COUNT(*) FROM memories")).isZero();
        assertThat(memory.recall("peanuts", List.of(ALICE_SCOPE), 5)).isEmpty();
        // the same content can be stored again
        memory.store(ALICE_SCOPE, "m2", "Alice is allergic to peanuts", MemoryEntry.CORE);
        assertThat(memory.recall("peanuts", List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("m2");
    }

    @Test
    void trimKeepsTheCapDroppingTheOldestConversationEntriesFirst() {
        // SPEC ME-7, OP-7: each scope is bounded
        Memory memory = memory();
        memory.store(ALICE_SCOPE, "fact", "Alice lives in Porto", MemoryEntry.CORE);
        for (int i = 1; i <= 4; i++) {
            clock.advance(Duration.ofSeconds(1));
            memory.store(ALICE_SCOPE, "c" + i, "conversation line number " + i, MemoryEntry.CONVERSATION);
        }
        memory.store(BOB_SCOPE, "c1", "bob line", MemoryEntry.CONVERSATION);

        assertThat(memory.trim(ALICE_SCOPE, 3)).isEqualTo(2);
        assertThat(memory.trim(ALICE_SCOPE, 3)).isZero();
        assertThat(rows("SELECT mkey FROM memories WHERE scope = ? ORDER BY mkey", ALICE_SCOPE.id()))
                .containsExactly(List.of("c3"), List.of("c4"), List.of("fact"));
        assertThat(memory.recall("conversation line", List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactlyInAnyOrder("c3", "c4");
        assertThat(memory.list(ALICE_SCOPE, 10)).extracting(MemoryEntry::key).containsExactly("c4", "c3", "fact");
    }

    @Test
    void expireRemovesEntriesOfACategoryNotUpdatedSince() {
        // SPEC ME-7: auto-saved conversation memories age out
        Memory memory = memory();
        memory.store(ALICE_SCOPE, "old", "an old remark about gardening", MemoryEntry.CONVERSATION);
        memory.store(ALICE_SCOPE, "fact", "Alice gardens on Sundays", MemoryEntry.CORE);
        clock.advance(Duration.ofDays(31));
        memory.store(ALICE_SCOPE, "new", "a new remark about gardening", MemoryEntry.CONVERSATION);

        assertThat(memory.expire(MemoryEntry.CONVERSATION, clock.instant().minus(Duration.ofDays(30))))
                .isEqualTo(1);
        assertThat(rows("SELECT mkey FROM memories ORDER BY mkey")).containsExactly(List.of("fact"), List.of("new"));
        assertThat(memory.recall("gardening remark", List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("new");
    }

    @Test
    void memoriesSurviveReopeningTheStore() {
        // SPEC OP-1: memory lives in the store's database
        Store first = open();
        first.memory().store(ALICE_SCOPE, "m1", "Alice's birthday is on the ninth of June", MemoryEntry.CORE);
        first.close();

        assertThat(memory().recall("when is the birthday", List.of(ALICE_SCOPE), 5))
                .extracting(r -> r.entry().key())
                .containsExactly("m1");
    }

    @Test
    void badEntriesAreRefused() {
        Memory memory = memory();
        assertThatThrownBy(() -> memory.store(ALICE_SCOPE, " ", "content", MemoryEntry.CORE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> memory.store(ALICE_SCOPE, "k", "  ", MemoryEntry.CORE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> memory.store(ALICE_SCOPE, "k", "content", "Not A Word"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(count("SELECT COUNT(*) FROM memories")).isZero();
    }

    @Test
    void optimizeLeavesEveryEntryAndEveryRecallAsTheyWere() {
        // SPEC ME-5, issue 27: the hourly upkeep tidies the keyword index; what recall finds does not change
        Memory memory = memory();
        memory.store(ALICE_SCOPE, "a", "kites over the harbour", MemoryEntry.CONVERSATION);
        memory.store(ALICE_SCOPE, "b", "boats in the harbour", MemoryEntry.CORE);
        memory.forget(ALICE_SCOPE, "b");
        memory.store(ALICE_SCOPE, "c", "trains to the harbour", MemoryEntry.CONVERSATION);
        var before = memory.recall("harbour kites", List.of(ALICE_SCOPE), 5);

        memory.optimize();
        memory.optimize();

        assertThat(memory.recall("harbour kites", List.of(ALICE_SCOPE), 5)).isEqualTo(before);
        assertThat(before).extracting(r -> r.entry().key()).containsExactly("a", "c");
        assertThat(memory.list(ALICE_SCOPE, 10)).extracting(MemoryEntry::key).containsExactlyInAnyOrder("a", "c");
    }
}
