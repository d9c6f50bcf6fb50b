package dev.clawgate.core.memory;

import java.util.Objects;

/**
 * A memory found by {@link Memory#recall}, with how well it matches the query on a scale from 0 (nothing in common) to
 * 1 (every query term, as often as an average entry has it): the scale {@code memory.min_relevance} is set on (SPEC
 * ME-3).
 */
public record Recalled(MemoryEntry entry, double score) {
    public Recalled {
        Objects.requireNonNull(entry, "entry");
        if (!(score >= 0 && score <= 1))
            throw new IllegalArgumentException("a recall score lies in [0, 1], got " + score);
    }
}
