package dev.clawgate.bench.recall;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.memory.HybridHit;
import dev.clawgate.core.memory.HybridMemory;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryIndexer;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Vectors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Recall quality on the labelled set (issue 25): recall@4 and MRR for keyword only ({@code vector_weight = 0}), vector
 * only (1) and hybrid (0.5, the default), on exact queries and on paraphrases, as the gateway recalls (one scope, the
 * top 4 are what a turn can inject); and "injected@4": the target among the top 4 and above {@code min_relevance}.
 */
public final class RecallQuality {
    static final MemoryScope SCOPE = MemoryScope.sender("bench", "user");
    static final int K = 4;
    static final int DEPTH = 20;

    public record Row(
            String mode,
            String kind,
            int queries,
            double recallAt4,
            double mrr,
            double injectedAt4,
            double wrongInjected) {
        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "| %s | %s | %d | %.2f | %.3f | %.2f | %.2f |",
                    mode,
                    kind,
                    queries,
                    recallAt4,
                    mrr,
                    injectedAt4,
                    wrongInjected);
        }
    }

    /** Stores the set in {@code memory} and embeds it; returns the milliseconds per memory the embedding took. */
    public static double load(Memory memory, Embedder embedder, RecallSet set) {
        for (RecallSet.Memory m : set.memories()) memory.store(SCOPE, m.key(), m.text(), MemoryEntry.CONVERSATION);
        long t0 = System.nanoTime();
        int n = new MemoryIndexer(memory.vectors(), embedder, 32, Duration.ofMinutes(1)).indexPending();
        if (n != set.memories().size()) throw new IllegalStateException("embedded " + n + " memories");
        return (System.nanoTime() - t0) / 1e6 / n;
    }

    public static List<Row> measure(Memory memory, Embedder embedder, RecallSet set) {
        List<Row> rows = new ArrayList<>();
        for (double w : new double[] {0, 1, 0.5}) {
            String mode = w == 0 ? "keyword only" : w == 1 ? "vector only" : "hybrid (vector_weight 0.5)";
            MemorySettings cfg = MemorySettings.defaults()
                    .withEmbedding(new EmbeddingSettings(EmbeddingSettings.LOCAL, null, w, 25));
            HybridMemory hybrid = new HybridMemory(memory, embedder, () -> cfg);
            for (boolean para : new boolean[] {false, true}) {
                int n = 0;
                int hits = 0;
                int injected = 0;
                int wrong = 0;
                double rr = 0;
                for (RecallSet.Query q : set.queries()) {
                    if (q.paraphrase() != para) continue;
                    n++;
                    List<HybridHit> found = hybrid.explain(q.text(), List.of(SCOPE), DEPTH).stream()
                            .filter(h -> h.score() > 0)
                            .toList();
                    for (int i = 0; i < Math.min(K, found.size()); i++) {
                        HybridHit h = found.get(i);
                        if (!h.entry().key().equals(q.targetKey()) && h.score() >= cfg.minRelevance()) wrong++;
                    }
                    for (int i = 0; i < found.size(); i++) {
                        if (!found.get(i).entry().key().equals(q.targetKey())) continue;
                        rr += 1.0 / (i + 1);
                        if (i < K) hits++;
                        if (i < K && found.get(i).score() >= cfg.minRelevance()) injected++;
                        break;
                    }
                }
                rows.add(new Row(
                        mode,
                        para ? "paraphrase" : "exact",
                        n,
                        (double) hits / n,
                        rr / n,
                        (double) injected / n,
                        (double) wrong / n));
            }
        }
        return rows;
    }

    /** Cosines of each query to its target and to the best other memory: what the model's calibration rests on. */
    public static String cosines(Embedder embedder, RecallSet set) throws Exception {
        List<float[]> mv = new ArrayList<>();
        for (RecallSet.Memory m : set.memories()) mv.add(Vectors.unit(embedder.embed(m.text())));
        List<Double> targetPara = new ArrayList<>();
        List<Double> targetExact = new ArrayList<>();
        List<Double> bestOther = new ArrayList<>();
        for (RecallSet.Query q : set.queries()) {
            float[] qv = Vectors.unit(embedder.embed(q.text()));
            double best = -1;
            for (int i = 0; i < mv.size(); i++) {
                double c = Vectors.dot(qv, mv.get(i));
                if (set.memories().get(i).key().equals(q.targetKey()))
                    (q.paraphrase() ? targetPara : targetExact).add(c);
                else best = Math.max(best, c);
            }
            bestOther.add(best);
        }
        List<Double> greeting = new ArrayList<>();
        for (String g : List.of(
                "hello, how are you doing today?",
                "thanks a lot, that was really helpful!",
                "good morning everyone!")) {
            float[] qv = Vectors.unit(embedder.embed(g));
            double best = -1;
            for (float[] v : mv) best = Math.max(best, Vectors.dot(qv, v));
            greeting.add(best);
        }
        return "cosine to target, exact: " + quartiles(targetExact) + "\ncosine to target, paraphrase: "
                + quartiles(targetPara) + "\nbest cosine to a wrong memory: " + quartiles(bestOther)
                + "\nbest cosine of a greeting to any memory: " + quartiles(greeting);
    }

    static String quartiles(List<Double> xs) {
        List<Double> s = xs.stream().sorted().toList();
        return String.format(
                Locale.ROOT,
                "min %.3f p25 %.3f median %.3f p75 %.3f max %.3f (n=%d)",
                s.getFirst(),
                s.get(s.size() / 4),
                s.get(s.size() / 2),
                s.get(s.size() * 3 / 4),
                s.getLast(),
                s.size());
    }
}
