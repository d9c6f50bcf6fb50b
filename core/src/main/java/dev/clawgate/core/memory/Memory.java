package dev.clawgate.core.memory;

import java.time.Instant;
import java.util.List;

/**
 * Long-term memory (SPEC ME-1..ME-7): entries by scope and key, recalled by full-text relevance. Every method is its
 * own transaction; failures are {@link dev.clawgate.core.store.StoreException}s. Thread-safe.
 */
public interface Memory {

    /**
     * Stores {@code content} under {@code key} in {@code scope}, replacing what the key held. When the scope already
     * holds identical content (SPEC ME-7: by content hash) nothing new is stored: that entry is returned, its time
     * refreshed, and {@code key}'s old entry, if any, removed.
     *
     * @throws IllegalArgumentException for a blank key or content, or a category that is not
     *     {@link MemoryEntry#isCategory}
     */
    MemoryEntry store(MemoryScope scope, String key, String content, String category);

    /**
     * The entries of {@code scopes} that share terms with {@code query}, best first, at most {@code limit}, each scored
     * in [0, 1] ({@link Relevance}). A query without a meaningful term (a greeting, punctuation) recalls nothing.
     */
    List<Recalled> recall(String query, List<MemoryScope> scopes, int limit);

    /** Removes the entry of {@code key} in {@code scope}; false when there was none. */
    boolean forget(MemoryScope scope, String key);

    /** The entry of {@code key} in {@code scope}, if any. */
    java.util.Optional<MemoryEntry> get(MemoryScope scope, String key);

    /** The scope's entries, most recently updated first, at most {@code limit}. */
    List<MemoryEntry> list(MemoryScope scope, int limit);

    /**
     * Keeps at most {@code maxEntries} in {@code scope}, removing {@code conversation} entries before others, least
     * recently updated first (SPEC OP-7: bounded). Returns how many went.
     */
    int trim(MemoryScope scope, int maxEntries);

    /** Removes entries of {@code category} last updated before {@code before}; returns how many. */
    int expire(String category, Instant before);

    /**
     * Tidies the keyword index so recall reads it in one piece (the hourly memory upkeep calls it; SQLite merges its
     * FTS5 segments, issue 27). Nothing to do by default, nor where the database keeps its index tidy itself.
     */
    default void optimize() {}

    /** The entries' vectors, for hybrid recall (SPEC ME-5); {@link MemoryVectors#NONE} where none are kept. */
    default MemoryVectors vectors() {
        return MemoryVectors.NONE;
    }

    /** For contexts without memory (tests of other tools, memory disabled): reads find nothing, writes are refused. */
    Memory NONE = new Memory() {
        @Override
        public MemoryEntry store(MemoryScope scope, String key, String content, String category) {
            throw new IllegalArgumentException("memory is not available here");
        }

        @Override
        public List<Recalled> recall(String query, List<MemoryScope> scopes, int limit) {
            return List.of();
        }

        @Override
        public boolean forget(MemoryScope scope, String key) {
            throw new IllegalArgumentException("memory is not available here");
        }

        @Override
        public java.util.Optional<MemoryEntry> get(MemoryScope scope, String key) {
            return java.util.Optional.empty();
        }

        @Override
        public List<MemoryEntry> list(MemoryScope scope, int limit) {
            return List.of();
        }

        @Override
        public int trim(MemoryScope scope, int maxEntries) {
            return 0;
        }

        @Override
        public int expire(String category, Instant before) {
            return 0;
        }
    };
}
