package dev.clawgate.server.config;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.memory.ConsolidationMode;
import java.time.Duration;

/** Reads {@code [memory]} (SPEC ME-1..ME-4, ME-6, ME-7). */
final class MemorySection {
    private static final int MAX_CHARS = 1_000_000;

    private MemorySection() {}

    static MemorySettings read(TableReader t) {
        MemorySettings d = MemorySettings.defaults();
        return new MemorySettings(
                t.bool("enabled", d.enabled()),
                t.bool("auto_save", d.autoSave()),
                t.integer("auto_save_min_chars", d.autoSaveMinChars(), 1, MAX_CHARS),
                t.integer("recall_limit", d.recallLimit(), 1, 100),
                t.number("min_relevance", d.minRelevance(), 0, 1),
                t.integer("context_max_entries", d.contextMaxEntries(), 1, 100),
                t.integer("context_entry_chars", d.contextEntryChars(), 1, MAX_CHARS),
                t.integer("context_max_chars", d.contextMaxChars(), 1, MAX_CHARS),
                t.integer("max_entry_chars", d.maxEntryChars(), 1, MAX_CHARS),
                t.integer("max_entries_per_scope", d.maxEntriesPerScope(), 1, 10_000_000),
                t.duration("conversation_max_age", d.conversationMaxAge(), Duration.ZERO),
                t.choice(
                        "consolidation",
                        d.consolidation(),
                        ConsolidationMode::parse,
                        "a consolidation mode",
                        "off, dedupe, llm"),
                t.integer("consolidation_queue", d.consolidationQueue(), 1, 100_000),
                embedding(t, d.embedding()));
    }

    /** The vector half of hybrid recall (SPEC ME-5). */
    private static EmbeddingSettings embedding(TableReader t, EmbeddingSettings d) {
        String model = t.string("embedding_model");
        String embedder = t.string("embedder");
        return new EmbeddingSettings(
                embedder == null || embedder.isBlank() ? d.embedder() : embedder.strip(),
                model == null || model.isBlank() ? null : model.strip(),
                t.number("vector_weight", d.vectorWeight(), 0, 1),
                t.integer("candidates", d.candidates(), 1, 1_000),
                t.integer("ann_threshold", d.annThreshold(), 1, 100_000_000));
    }
}
