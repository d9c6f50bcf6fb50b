package dev.clawgate.core.memory;

import dev.clawgate.core.internal.memory.Fusion;
import java.util.Objects;

/**
 * One memory found by hybrid recall, with how each half saw it (SPEC ME-5; {@code clawgate memory search --explain}).
 *
 * @param keywordRank its place among the keyword candidates, from 1; 0 when the keyword half did not find it
 * @param keywordScore the keyword half's normalised score, 0 when not found
 * @param cosine its vector's cosine similarity to the query's; NaN when it has no vector or the query none
 * @param score the fused score on [0, 1] ({@link Fusion}), the one {@code memory.min_relevance} applies to
 */
public record HybridHit(MemoryEntry entry, int keywordRank, double keywordScore, double cosine, double score) {
    public HybridHit {
        Objects.requireNonNull(entry, "entry");
    }

    public boolean hasVector() {
        return !Double.isNaN(cosine);
    }

    public Recalled recalled() {
        return new Recalled(entry, score);
    }
}
