package dev.clawgate.core.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RelevanceTest {

    @Test
    void wordsAreLowerCasedRunsOfLettersAndDigitsWithoutAccents() {
        // SPEC ME-5: both dialects index the same terms
        assertThat(Relevance.words("Crème brûlée, São-Paulo 2024! e-mail's"))
                .containsExactly("creme", "brulee", "sao", "paulo", "2024", "e", "mail", "s");
        assertThat(Relevance.words("x".repeat(100))).containsExactly("x".repeat(Relevance.MAX_TERM_CHARS));
    }

    @Test
    void aGreetingHasNoQueryTerms() {
        // SPEC ME-7: a greeting is not answered with memories
        for (String greeting :
                List.of("hi", "Hi!", "hello", "hey there", "Hello, how are you?", "thanks!", "ok", "🙂", "")) {
            assertThat(Relevance.queryTerms(greeting)).as(greeting).isEmpty();
        }
        assertThat(Relevance.queryTerms("What is my cat named? My CAT!")).containsExactly("cat", "named");
    }

    @Test
    void pluralsFindTheirSingular() {
        // SPEC ME-5: "leaves" in a memory is found by "leave"; both sides fold the same way
        assertThat(Relevance.queryTerms("when does the train leave")).containsExactly("train", "leave");
        assertThat(Relevance.indexTerms("k", "trains leaves cities bus", MemoryEntry.CONVERSATION))
                .containsExactly("train", "leave", "city", "bus");
    }

    @Test
    void mentionsAddressSomeoneAndAreNotSearchedFor() {
        // SPEC ME-2: "@clawbot what is my cat named?" in a group is about the cat, not the bot
        assertThat(Relevance.queryTerms("@clawbot what is my cat named? mail me at a@b.example"))
                .containsExactly("cat", "named", "mail", "example");
    }

    @Test
    void aMissingTermCostsNoMoreThanOneThatOnlyOneEntryHolds() {
        // SPEC ME-3: in a store of one entry, two of three query terms still clear min_relevance 0.4
        var corpus = new Relevance.Corpus(1, 5, Map.of("cat", 1L, "named", 1L));
        double score = Relevance.score(
                List.of("cat", "named", "called"), List.of("cat", "named", "pixel", "love", "tuna"), corpus);
        assertThat(score).isCloseTo(2.0 / 3, within(1e-12));
    }

    @Test
    void aQueryLooksForAtMostSixteenDistinctTerms() {
        StringBuilder q = new StringBuilder();
        for (int i = 0; i < 40; i++) q.append("word").append(i).append(' ');
        assertThat(Relevance.queryTerms(q.toString()))
                .hasSize(Relevance.MAX_QUERY_TERMS)
                .startsWith("word0");
    }

    @Test
    void conversationKeysAreIdsNotWordsButOtherKeysAreIndexed() {
        // SPEC ME-1: an auto-saved entry's key is {channel}_{sender}_{message_id}, which says nothing about its content
        assertThat(Relevance.indexTerms("telegram_alice_42", "I like tea", MemoryEntry.CONVERSATION))
                .containsExactly("tea");
        assertThat(Relevance.indexTerms("favourite_drink", "tea", MemoryEntry.CORE))
                .containsExactly("favourite", "drink", "tea");
    }

    @Test
    void everyQueryTermAtAverageLengthScoresOneAndNoSharedTermScoresZero() {
        // SPEC ME-3: the score lies on [0, 1]
        var corpus = new Relevance.Corpus(10, 3, Map.of("cat", 2L, "named", 1L));
        assertThat(Relevance.score(List.of("cat", "named"), List.of("cat", "named", "pixel"), corpus))
                .isCloseTo(1.0, within(1e-12));
        assertThat(Relevance.score(List.of("cat", "named"), List.of("dog", "barks", "loud"), corpus))
                .isZero();
        assertThat(Relevance.score(List.of(), List.of("cat"), corpus)).isZero();
    }

    @Test
    void aRareTermWeighsMoreThanACommonOne() {
        // SPEC ME-3: BM25's idf, normalised
        var corpus = new Relevance.Corpus(100, 3, Map.of("cat", 90L, "pixel", 1L));
        double rare = Relevance.score(List.of("cat", "pixel"), List.of("pixel", "x", "y"), corpus);
        double common = Relevance.score(List.of("cat", "pixel"), List.of("cat", "x", "y"), corpus);
        assertThat(rare).isGreaterThan(0.9);
        assertThat(common).isLessThan(0.1);
    }

    @Test
    void scoresStayWithinZeroAndOneForAnyInput() {
        // SPEC ME-3 property: whatever the counts, a score is a number in [0, 1]
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<String> vocabulary = List.of("a1", "b2", "c3", "d4", "e5", "f6");
        for (int i = 0; i < 5_000; i++) {
            List<String> query = pick(random, vocabulary, 1 + random.nextInt(4));
            List<String> entry = pick(random, vocabulary, random.nextInt(12));
            long n = random.nextInt(50);
            Map<String, Long> df = new HashMap<>();
            for (String t : vocabulary) df.put(t, (long) random.nextInt(60));
            double score = Relevance.score(query, entry, new Relevance.Corpus(n, random.nextDouble() * 20, df));
            assertThat(score)
                    .as("seed %d, query %s, entry %s", seed, query, entry)
                    .isBetween(0.0, 1.0);
        }
    }

    private static List<String> pick(Random random, List<String> from, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(from.get(random.nextInt(from.size())));
        return out;
    }
}
