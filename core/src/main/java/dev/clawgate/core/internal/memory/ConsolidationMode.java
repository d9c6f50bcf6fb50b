package dev.clawgate.core.internal.memory;

import java.util.Locale;
import java.util.Optional;

/**
 * What runs after a turn to tidy its memories (SPEC ME-6), {@code memory.consolidation}. {@link #DEDUPE} (the default)
 * costs no model call; {@link #LLM} does what dedupe does and also asks the agent's model for the few durable facts the
 * turn revealed.
 */
public enum ConsolidationMode {
    /** Nothing runs after a turn. */
    OFF("off"),
    /** The turn's new conversation memories absorb near-duplicates of themselves in their scope. */
    DEDUPE("dedupe"),
    /**
     * {@link #DEDUPE}, plus at most a few durable facts extracted by the agent's model, kept as {@code core} memories.
     */
    LLM("llm");

    private final String wireName;

    ConsolidationMode(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<ConsolidationMode> parse(String s) {
        if (s == null) return Optional.empty();
        String n = s.strip().toLowerCase(Locale.ROOT);
        for (ConsolidationMode m : values()) {
            if (m.wireName.equals(n)) return Optional.of(m);
        }
        return Optional.empty();
    }
}
