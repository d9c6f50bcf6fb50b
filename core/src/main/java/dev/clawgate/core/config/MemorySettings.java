package dev.clawgate.core.config;

import dev.clawgate.core.internal.memory.ConsolidationMode;
import java.time.Duration;
import java.util.Objects;

/**
 * {@code [memory]} (SPEC ME-1..ME-4, ME-6, ME-7).
 *
 * @param enabled false: no recall, no auto-save, no memory tools
 * @param autoSave store the user's messages as {@code conversation} memories (ME-1)
 * @param autoSaveMinChars shorter messages are not auto-saved (ME-1: 20)
 * @param recallLimit entries recalled per scope before each turn (ME-2: 5)
 * @param minRelevance recalled entries scoring lower, on [0, 1], are not injected (ME-3, ME-7: 0.4)
 * @param contextMaxEntries at most this many entries in the memory context (ME-3: 4)
 * @param contextEntryChars each injected entry is cut to this (ME-3: 800)
 * @param contextMaxChars the memory context holds at most this much in all (ME-3: 4,000)
 * @param maxEntryChars longer content is neither stored nor injected (ME-3: 4,000)
 * @param maxEntriesPerScope each scope keeps at most this many entries, conversation ones dropped first (OP-7)
 * @param conversationMaxAge auto-saved memories not updated for this long are removed; zero keeps them forever
 * @param consolidation what runs after a turn, off the reply path (ME-6): off, dedupe (the default) or llm
 * @param consolidationQueue at most this many finished turns wait for consolidation; more are dropped, never waited for
 * @param embedding the vector half of hybrid recall (ME-5): which embedder, and how the halves are fused
 */
public record MemorySettings(
        boolean enabled,
        boolean autoSave,
        int autoSaveMinChars,
        int recallLimit,
        double minRelevance,
        int contextMaxEntries,
        int contextEntryChars,
        int contextMaxChars,
        int maxEntryChars,
        int maxEntriesPerScope,
        Duration conversationMaxAge,
        ConsolidationMode consolidation,
        int consolidationQueue,
        EmbeddingSettings embedding) {
    public static final ConsolidationMode DEFAULT_CONSOLIDATION = ConsolidationMode.DEDUPE;
    public static final int DEFAULT_CONSOLIDATION_QUEUE = 64;

    public MemorySettings {
        Objects.requireNonNull(conversationMaxAge, "conversationMaxAge");
        Objects.requireNonNull(consolidation, "consolidation");
        if (embedding == null) embedding = EmbeddingSettings.defaults();
        positive("consolidation_queue", consolidationQueue);
        if (!(minRelevance >= 0 && minRelevance <= 1)) {
            throw new IllegalArgumentException("memory.min_relevance lies in [0, 1], got " + minRelevance);
        }
        positive("auto_save_min_chars", autoSaveMinChars);
        positive("recall_limit", recallLimit);
        positive("context_max_entries", contextMaxEntries);
        positive("context_entry_chars", contextEntryChars);
        positive("context_max_chars", contextMaxChars);
        positive("max_entry_chars", maxEntryChars);
        positive("max_entries_per_scope", maxEntriesPerScope);
        if (conversationMaxAge.isNegative())
            throw new IllegalArgumentException("memory.conversation_max_age must not be negative");
    }

    /** With the default consolidation ({@link #DEFAULT_CONSOLIDATION}, queue {@link #DEFAULT_CONSOLIDATION_QUEUE}). */
    public MemorySettings(
            boolean enabled,
            boolean autoSave,
            int autoSaveMinChars,
            int recallLimit,
            double minRelevance,
            int contextMaxEntries,
            int contextEntryChars,
            int contextMaxChars,
            int maxEntryChars,
            int maxEntriesPerScope,
            Duration conversationMaxAge) {
        this(
                enabled,
                autoSave,
                autoSaveMinChars,
                recallLimit,
                minRelevance,
                contextMaxEntries,
                contextEntryChars,
                contextMaxChars,
                maxEntryChars,
                maxEntriesPerScope,
                conversationMaxAge,
                DEFAULT_CONSOLIDATION,
                DEFAULT_CONSOLIDATION_QUEUE,
                EmbeddingSettings.defaults());
    }

    public static MemorySettings defaults() {
        return new MemorySettings(true, true, 20, 5, 0.4, 4, 800, 4_000, 4_000, 10_000, Duration.ofDays(30));
    }

    /** The same settings with memory switched off. */
    public MemorySettings disabled() {
        return new MemorySettings(
                false,
                autoSave,
                autoSaveMinChars,
                recallLimit,
                minRelevance,
                contextMaxEntries,
                contextEntryChars,
                contextMaxChars,
                maxEntryChars,
                maxEntriesPerScope,
                conversationMaxAge,
                consolidation,
                consolidationQueue,
                embedding);
    }

    /** The same settings with another consolidation queue size. */
    public MemorySettings withConsolidationQueue(int size) {
        return new MemorySettings(
                enabled,
                autoSave,
                autoSaveMinChars,
                recallLimit,
                minRelevance,
                contextMaxEntries,
                contextEntryChars,
                contextMaxChars,
                maxEntryChars,
                maxEntriesPerScope,
                conversationMaxAge,
                consolidation,
                size,
                embedding);
    }

    /** The same settings with another consolidation mode. */
    public MemorySettings withConsolidation(ConsolidationMode mode) {
        return new MemorySettings(
                enabled,
                autoSave,
                autoSaveMinChars,
                recallLimit,
                minRelevance,
                contextMaxEntries,
                contextEntryChars,
                contextMaxChars,
                maxEntryChars,
                maxEntriesPerScope,
                conversationMaxAge,
                mode,
                consolidationQueue,
                embedding);
    }

    /** The same settings with another vector half (SPEC ME-5). */
    public MemorySettings withEmbedding(EmbeddingSettings e) {
        return new MemorySettings(
                enabled,
                autoSave,
                autoSaveMinChars,
                recallLimit,
                minRelevance,
                contextMaxEntries,
                contextEntryChars,
                contextMaxChars,
                maxEntryChars,
                maxEntriesPerScope,
                conversationMaxAge,
                consolidation,
                consolidationQueue,
                e);
    }

    private static void positive(String key, int value) {
        if (value < 1) throw new IllegalArgumentException("memory." + key + " must be at least 1, got " + value);
    }
}
