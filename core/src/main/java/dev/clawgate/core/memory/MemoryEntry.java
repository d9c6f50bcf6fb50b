package dev.clawgate.core.memory;

import java.time.Instant;
import java.util.Objects;

/**
 * One stored memory. Within a scope a key names one entry, and identical content is kept once (SPEC ME-7).
 *
 * @param category e.g. {@link #CONVERSATION} for auto-saved user messages (SPEC ME-1), {@link #CORE} for facts the
 *     agent chose to keep
 */
public record MemoryEntry(
        long id, MemoryScope scope, String key, String content, String category, Instant createdAt, Instant updatedAt) {
    public static final String CONVERSATION = "conversation";
    public static final String CORE = "core";

    public MemoryEntry {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** A category is a plain lower-case word: letters, digits, {@code _} and {@code -}, at most 32. */
    public static boolean isCategory(String s) {
        return s != null && s.matches("[a-z0-9][a-z0-9_-]{0,31}");
    }
}
