package dev.clawgate.core.memory;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How well a memory matches a query, normalised to [0, 1] (SPEC ME-3's {@code min_relevance} scale). Both store
 * dialects index the same terms ({@link #indexTerms}) and score with this class, so SQLite and PostgreSQL agree to the
 * last digit.
 *
 * <p>The score is BM25 divided by its value for an ideal entry: each query term {@code t} adds {@code idf(t) * min(1,
 * tf·(k1+1) / (tf + k1·(1 - b + b·len/avgLen)))}, and the sum is divided by {@code Σ idf(t)}. An entry holding every
 * query term once, at average length, scores 1; one holding only rare terms' common neighbours scores near 0. The idf
 * is Lucene's {@code ln(1 + (N - n + 0.5) / (n + 0.5))}, with {@code n} at least 1, which stays positive: SQLite's own
 * {@code bm25()} floors the idf of a term in over half the entries at 1e-6, which makes every score of a small store
 * nearly zero, so the database's rank only picks and orders the candidates.
 */
public final class Relevance {
    static final double K1 = 1.2;
    static final double B = 0.75;
    /** Longer runs of letters are cut: no store indexes unbounded words (PostgreSQL refuses over 2 KB). */
    static final int MAX_TERM_CHARS = 64;
    /** A query looks for at most this many distinct terms. */
    public static final int MAX_QUERY_TERMS = 16;

    /** Words that say nothing about what a memory is about, greetings included (SPEC ME-7). */
    static final Set<String> STOP_WORDS = Set.of(
            "a",
            "about",
            "after",
            "again",
            "all",
            "also",
            "am",
            "an",
            "and",
            "any",
            "are",
            "as",
            "at",
            "be",
            "because",
            "been",
            "before",
            "being",
            "but",
            "by",
            "bye",
            "can",
            "could",
            "did",
            "do",
            "does",
            "doing",
            "done",
            "for",
            "from",
            "get",
            "got",
            "had",
            "has",
            "have",
            "having",
            "he",
            "hello",
            "her",
            "here",
            "hers",
            "hey",
            "hi",
            "him",
            "his",
            "how",
            "i",
            "if",
            "im",
            "in",
            "into",
            "is",
            "it",
            "its",
            "just",
            "let",
            "like",
            "me",
            "more",
            "most",
            "much",
            "my",
            "myself",
            "no",
            "not",
            "now",
            "of",
            "ok",
            "okay",
            "on",
            "one",
            "or",
            "our",
            "ours",
            "please",
            "she",
            "should",
            "so",
            "some",
            "such",
            "than",
            "thank",
            "thanks",
            "that",
            "the",
            "their",
            "them",
            "then",
            "there",
            "these",
            "they",
            "this",
            "those",
            "to",
            "too",
            "up",
            "us",
            "very",
            "was",
            "we",
            "were",
            "what",
            "when",
            "where",
            "which",
            "while",
            "who",
            "whom",
            "why",
            "will",
            "with",
            "would",
            "yes",
            "yo",
            "you",
            "your",
            "yours",
            "yourself",
            "s",
            "t",
            "d",
            "ll",
            "m",
            "re",
            "ve",
            "don",
            "didn",
            "isn",
            "wasn");

    private Relevance() {}

    /** Counts over the scopes a recall searches. */
    public record Corpus(long entries, double averageLength, Map<String, Long> entriesWithTerm) {
        public Corpus {
            entriesWithTerm = Map.copyOf(entriesWithTerm);
        }
    }

    /** An {@code @handle}: who is addressed, not what is said. */
    private static final java.util.regex.Pattern MENTION =
            java.util.regex.Pattern.compile("(?<![\\p{L}\\p{N}])@[\\p{L}\\p{N}_.]+");

    /** Lower-cased runs of letters and digits, accents removed, in order, stop words left in. */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        if (text == null || text.isEmpty()) return out;
        String folded = Normalizer.normalize(text, Normalizer.Form.NFKD)
                .replaceAll("\\p{M}+", "")
                .toLowerCase(Locale.ROOT);
        StringBuilder word = new StringBuilder();
        folded.codePoints().forEach(cp -> {
            if (Character.isLetterOrDigit(cp)) {
                if (word.length() < MAX_TERM_CHARS) word.appendCodePoint(cp);
            } else if (!word.isEmpty()) {
                out.add(word.toString());
                word.setLength(0);
            }
        });
        if (!word.isEmpty()) out.add(word.toString());
        return out;
    }

    /**
     * What an entry is indexed by: its words without stop words, plurals folded ({@link #stem}); a key's words first
     * unless the key is an id (SPEC ME-1).
     */
    public static List<String> indexTerms(String key, String content, String category) {
        List<String> terms = new ArrayList<>();
        if (!MemoryEntry.CONVERSATION.equals(category)) terms.addAll(meaningful(words(key)));
        terms.addAll(meaningful(words(withoutMentions(content))));
        return terms;
    }

    /**
     * The distinct meaningful terms of a query, as {@link #indexTerms} folds them, at most {@link #MAX_QUERY_TERMS};
     * empty for a greeting.
     */
    public static List<String> queryTerms(String query) {
        Set<String> distinct = new LinkedHashSet<>(meaningful(words(withoutMentions(query))));
        return distinct.stream().limit(MAX_QUERY_TERMS).toList();
    }

    /** The normalised score, in [0, 1], of an entry with {@code entryTerms} for {@code queryTerms}. */
    public static double score(List<String> queryTerms, List<String> entryTerms, Corpus corpus) {
        if (queryTerms.isEmpty() || entryTerms.isEmpty()) return 0;
        Map<String, Integer> tf = new HashMap<>();
        for (String t : entryTerms) tf.merge(t, 1, Integer::sum);
        double avg = corpus.averageLength() > 0 ? corpus.averageLength() : entryTerms.size();
        double lengthNorm = K1 * (1 - B + B * entryTerms.size() / avg);
        // the entry being scored is one of them, whatever the counts say
        long entries = Math.max(1, corpus.entries());
        double got = 0;
        double ideal = 0;
        for (String t : queryTerms) {
            // a term no entry holds counts as if one did: its absence says nothing about how rare it is here,
            // and weighing it as the rarest word would sink every partial match in a small store
            long n = Math.max(1, Math.min(corpus.entriesWithTerm().getOrDefault(t, 0L), entries));
            double idf = Math.log(1 + (entries - n + 0.5) / (n + 0.5));
            ideal += idf;
            int f = tf.getOrDefault(t, 0);
            if (f > 0) got += idf * Math.min(1.0, f * (K1 + 1) / (f + lengthNorm));
        }
        return Math.max(0, Math.min(1, got / ideal));
    }

    private static String withoutMentions(String text) {
        return text == null ? "" : MENTION.matcher(text).replaceAll(" ");
    }

    private static List<String> meaningful(List<String> words) {
        return words.stream()
                .filter(w -> !STOP_WORDS.contains(w) && !isLoneLetter(w))
                .map(Relevance::stem)
                .toList();
    }

    /** "a", "b" of "a@b", the "s" of "it's": a single Latin letter says nothing. */
    private static boolean isLoneLetter(String w) {
        return w.length() == 1 && w.charAt(0) >= 'a' && w.charAt(0) <= 'z';
    }

    /**
     * Harman's S-stemmer: plural endings only ("leaves" finds "leave", "cities" finds "city"). Small stores have few
     * words to match, so a missed plural costs a whole memory; anything bolder would mangle other languages.
     */
    static String stem(String w) {
        if (w.length() <= 3) return w;
        if (w.endsWith("ies") && !w.endsWith("eies") && !w.endsWith("aies"))
            return w.substring(0, w.length() - 3) + "y";
        if (w.endsWith("es") && !w.endsWith("aes") && !w.endsWith("ees") && !w.endsWith("oes"))
            return w.substring(0, w.length() - 1);
        if (w.endsWith("s") && !w.endsWith("us") && !w.endsWith("ss")) return w.substring(0, w.length() - 1);
        return w;
    }
}
