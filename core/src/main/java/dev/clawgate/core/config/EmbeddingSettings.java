package dev.clawgate.core.config;

import java.util.Objects;

/**
 * The vector half of hybrid memory recall (SPEC ME-5), in {@code [memory]}.
 *
 * @param embedder {@code local} (the embeddings module's model, the default), {@code none} (keyword recall only), or
 *     the name of a provider whose kind serves embeddings (an OpenAI-compatible {@code /v1/embeddings})
 * @param model {@code embedding_model}: the remote provider's embedding model; null for the embedder's default
 * @param vectorWeight how the two halves are weighed in the fused score: 0 keyword only, 1 vector only, 0.5 (the
 *     default) both in full
 * @param candidates how many candidates each half hands to the fusion per recall
 * @param annThreshold {@code ann_threshold}: a scope holding at least this many vectors is searched through an
 *     approximate (HNSW) index instead of an exact scan of its rows
 */
public record EmbeddingSettings(String embedder, String model, double vectorWeight, int candidates, int annThreshold) {
    public static final String LOCAL = "local";
    public static final String NONE = "none";
    /**
     * Above the default {@code memory.max_entries_per_scope} (10,000), where an exact scan costs about 30 ms of CPU:
     * the index holds each vector in the heap (about 1.7 KB each at 384 dimensions), so only larger scopes pay for it.
     */
    public static final int DEFAULT_ANN_THRESHOLD = 20_000;

    public EmbeddingSettings {
        Objects.requireNonNull(embedder, "embedder");
        if (embedder.isBlank()) throw new IllegalArgumentException("memory.embedder must not be blank");
        if (!(vectorWeight >= 0 && vectorWeight <= 1))
            throw new IllegalArgumentException("memory.vector_weight lies in [0, 1], got " + vectorWeight);
        if (candidates < 1)
            throw new IllegalArgumentException("memory.candidates must be at least 1, got " + candidates);
        if (annThreshold < 1)
            throw new IllegalArgumentException("memory.ann_threshold must be at least 1, got " + annThreshold);
    }

    public EmbeddingSettings(String embedder, String model, double vectorWeight, int candidates) {
        this(embedder, model, vectorWeight, candidates, DEFAULT_ANN_THRESHOLD);
    }

    public static EmbeddingSettings defaults() {
        return new EmbeddingSettings(LOCAL, null, 0.5, 25);
    }

    public EmbeddingSettings withEmbedder(String name) {
        return new EmbeddingSettings(name, model, vectorWeight, candidates, annThreshold);
    }
}
