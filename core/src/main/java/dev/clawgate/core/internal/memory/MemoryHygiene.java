package dev.clawgate.core.internal.memory;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import java.time.Duration;
import java.time.Instant;

/**
 * SPEC ME-7, OP-7: the periodic half of memory hygiene. Auto-saved conversation memories not updated within
 * {@code memory.conversation_max_age} are removed; what the agent chose to keep stays. (Per-scope caps are applied as
 * entries are stored; duplicates never get in.)
 */
public final class MemoryHygiene {
    /** How often the server runs {@link #expire}: an hour is fine-grained enough for ages counted in days. */
    public static final Duration INTERVAL = Duration.ofHours(1);

    private MemoryHygiene() {}

    /** Removes expired conversation memories; returns how many. */
    public static int expire(Memory memory, MemorySettings settings, Instant now) {
        if (!settings.enabled() || settings.conversationMaxAge().isZero()) return 0;
        return memory.expire(MemoryEntry.CONVERSATION, now.minus(settings.conversationMaxAge()));
    }

    /**
     * Tidies the keyword index of the memory (SQLite merges its FTS5 segments: a recall then reads one,
     * bench/RESULTS.md measured ~300 → 47 µs); with memory off there is nothing to tidy.
     */
    public static void optimize(Memory memory, MemorySettings settings) {
        if (settings.enabled()) memory.optimize();
    }
}
