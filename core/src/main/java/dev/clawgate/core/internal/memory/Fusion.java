package dev.clawgate.core.internal.memory;

import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.memory.Relevance;

/**
 * How hybrid recall fuses its two halves into one score on [0, 1] (SPEC ME-3, ME-5), so {@code memory.min_relevance}
 * applies to it as it did to the keyword score alone. The keyword half is {@link Relevance}'s normalised BM25
 * {@code k}; the vector half is the cosine similarity mapped through the model's calibration to {@code v} (0 at its
 * floor, 1 at its ceiling). The score is the stronger of the two, {@code max(a·k, b·v)}, with {@code a = min(1, 2(1 -
 * w))} and {@code b = min(1, 2w)} for {@code w = memory.vector_weight}: at the default 0.5 either half alone can carry
 * a memory over the threshold (a paraphrase by its meaning, an exact name by its words), and two weak halves do not add
 * up to a strong one (they did with the noisy-or this replaced: a memory sharing one common word and a vague likeness
 * was injected). Without a vector (a memory not embedded yet, a short query) the score is the keyword score, as before.
 * {@code w = 0} is keyword only, {@code w = 1} vector only.
 *
 * <p>The vector half counts only for a memory whose cosine lies within {@link #relativeMargin} of the best cosine this
 * query reached ({@link #vectorRelevance}): a sentence model puts every memory of the same kind (another appointment,
 * another relative) at a middling similarity, so a memory well below the query's best match is a near miss, not a
 * second answer. The margin is a third of the model's calibrated range (0.1 for the local model).
 */
public final class Fusion {
    private Fusion() {}

    public static double fuse(double keyword, double vector, double vectorWeight) {
        double a = Math.min(1, 2 * (1 - vectorWeight));
        double b = Math.min(1, 2 * vectorWeight);
        return Math.max(a * clamp(keyword), b * clamp(vector));
    }

    /** How far below the query's best cosine a memory's vector still counts: a third of the calibrated range. */
    public static double relativeMargin(Embedder.Calibration c) {
        return (c.ceiling() - c.floor()) / 3;
    }

    /**
     * The vector half {@code v} of a memory at {@code cosine} to the query, when the query's best cosine among its
     * candidates is {@code best}: the calibrated relevance, or 0 past the relative margin (or without a vector).
     */
    public static double vectorRelevance(double cosine, double best, Embedder.Calibration c) {
        if (Double.isNaN(cosine) || cosine < best - relativeMargin(c)) return 0;
        return c.relevance(cosine);
    }

    private static double clamp(double x) {
        return Double.isNaN(x) ? 0 : Math.max(0, Math.min(1, x));
    }
}
