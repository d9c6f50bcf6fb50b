package dev.clawgate.core.memory;

/**
 * How hybrid recall fuses its two halves into one score on [0, 1] (SPEC ME-3, ME-5), so {@code memory.min_relevance}
 * applies to it as it did to the keyword score alone. The keyword half is {@link Relevance}'s normalised BM25
 * {@code k}; the vector half is the cosine similarity mapped through the model's calibration to {@code v} (0 at its
 * floor, 1 at its ceiling). They combine as independent evidence (a noisy-or): {@code 1 - (1 - a·k)(1 - b·v)}, with
 * {@code a = min(1, 2(1 - w))} and {@code b = min(1, 2w)} for {@code w = memory.vector_weight}. At the default 0.5 both
 * count in full: either half alone can carry a memory over the threshold (a paraphrase by its meaning, an exact name by
 * its words), and both together rank it highest; without a vector (a memory not embedded yet, a short query) the score
 * is the keyword score, as before. {@code w = 0} is keyword only, {@code w = 1} vector only.
 */
public final class Fusion {
    private Fusion() {}

    public static double fuse(double keyword, double vector, double vectorWeight) {
        double a = Math.min(1, 2 * (1 - vectorWeight));
        double b = Math.min(1, 2 * vectorWeight);
        double k = clamp(keyword);
        double v = clamp(vector);
        return clamp(1 - (1 - a * k) * (1 - b * v));
    }

    private static double clamp(double x) {
        return Double.isNaN(x) ? 0 : Math.max(0, Math.min(1, x));
    }
}
