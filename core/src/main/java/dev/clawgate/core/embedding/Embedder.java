package dev.clawgate.core.embedding;

import java.util.ArrayList;
import java.util.List;

/**
 * A sentence-embedding model (SPEC ME-5): text in, a vector out, for the vector half of hybrid memory recall. The
 * default is the local model of the {@code embeddings} module; a remote OpenAI-compatible {@code /v1/embeddings} API or
 * another model can take its place through {@link EmbedderFactory}. Thread-safe; may block (CPU or network).
 */
public interface Embedder extends AutoCloseable {

    /**
     * Names the model and its version; stored with each vector, so vectors of another model are re-embedded, never
     * compared with these.
     */
    String modelId();

    /** The length of every vector {@link #embed} returns. */
    int dimensions();

    /** The vector of {@code text}; the store compares vectors by cosine, so their length does not matter. */
    float[] embed(String text) throws EmbeddingException;

    /** The vectors of {@code texts}, in order: one call per batch where the model can, for the back-fill. */
    default List<float[]> embedAll(List<String> texts) throws EmbeddingException {
        List<float[]> out = new ArrayList<>(texts.size());
        for (String t : texts) out.add(embed(t));
        return out;
    }

    /**
     * How cosine similarity maps onto the [0, 1] relevance scale {@code memory.min_relevance} is set on: at or below
     * {@link Calibration#floor} a pair is unrelated (0), at or above {@link Calibration#ceiling} as close as a
     * paraphrase gets (1). Each model spreads its similarities differently, so each says its own.
     */
    default Calibration calibration() {
        return Calibration.DEFAULT;
    }

    @Override
    default void close() {}

    /** Cosine similarity bounds of one model, see {@link Embedder#calibration}. */
    record Calibration(double floor, double ceiling) {
        public static final Calibration DEFAULT = new Calibration(0.25, 0.65);

        public Calibration {
            if (!(floor >= -1 && floor < ceiling && ceiling <= 1))
                throw new IllegalArgumentException("need -1 <= floor < ceiling <= 1, got " + floor + ", " + ceiling);
        }

        /** {@code cosine} on the [0, 1] relevance scale. */
        public double relevance(double cosine) {
            return Math.max(0, Math.min(1, (cosine - floor) / (ceiling - floor)));
        }
    }
}
