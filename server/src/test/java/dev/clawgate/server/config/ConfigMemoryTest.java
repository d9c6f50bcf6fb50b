package dev.clawgate.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.memory.ConsolidationMode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code [memory]} (SPEC ME-1..ME-4, ME-6, ME-7; defaults table: auto_save true, min_relevance 0.4). */
class ConfigMemoryTest extends ConfigFileCase {
    @Test
    void withoutATableMemoryHasTheSpecDefaults() {
        // SPEC defaults table, ME-1 (20 characters), ME-2 (limit 5), ME-3 (4 entries, 800 and 4,000 characters)
        MemorySettings m = fixture.load(NO_KEYS).memory();
        assertThat(m).isEqualTo(MemorySettings.defaults());
        assertThat(m.autoSave()).isTrue();
        assertThat(m.minRelevance()).isEqualTo(0.4);
        assertThat(m.autoSaveMinChars()).isEqualTo(20);
        assertThat(m.recallLimit()).isEqualTo(5);
        assertThat(m.contextMaxEntries()).isEqualTo(4);
        assertThat(m.contextEntryChars()).isEqualTo(800);
        assertThat(m.contextMaxChars()).isEqualTo(4_000);
        assertThat(m.maxEntryChars()).isEqualTo(4_000);
    }

    @Test
    void everyKeyIsRead() {
        MemorySettings m = fixture.load("""
                [memory]
                enabled = false
                auto_save = false
                auto_save_min_chars = 30
                recall_limit = 3
                min_relevance = 0.55
                context_max_entries = 2
                context_entry_chars = 500
                context_max_chars = 1500
                max_entry_chars = 2000
                max_entries_per_scope = 50
                conversation_max_age = "7d"
                """).memory();
        assertThat(m)
                .isEqualTo(new MemorySettings(false, false, 30, 3, 0.55, 2, 500, 1_500, 2_000, 50, Duration.ofDays(7)));
        assertThat(fixture.load("[memory]\nmin_relevance = 1\nconversation_max_age = 0\n")
                        .memory())
                .extracting(MemorySettings::minRelevance, MemorySettings::conversationMaxAge)
                .containsExactly(1.0, Duration.ZERO);
    }

    @Test
    void theVectorHalfsKeysAreReadAndAnnThresholdIsCheckedAndAbovePerScopeCapByDefault() {
        // SPEC ME-5: [memory] vector_weight, candidates, ann_threshold
        EmbeddingSettings e = fixture.load("""
                [memory]
                embedder = "none"
                vector_weight = 0.25
                candidates = 40
                ann_threshold = 5000
                """).memory().embedding();
        assertThat(e).isEqualTo(new EmbeddingSettings("none", null, 0.25, 40, 5_000));
        assertThat(fixture.load(NO_KEYS).memory().embedding().annThreshold())
                .isEqualTo(EmbeddingSettings.DEFAULT_ANN_THRESHOLD)
                .isGreaterThan(MemorySettings.defaults().maxEntriesPerScope());
        assertThat(fixture.error("[memory]\nann_threshold = 0\n")).contains("memory.ann_threshold");
    }

    @Test
    void badValuesAreErrorsNamingTheKey() {
        assertThat(fixture.error("[memory]\nmin_relevance = 1.5\n"))
                .contains("memory.min_relevance")
                .contains("at most 1.0");
        assertThat(fixture.error("[memory]\nmin_relevance = \"high\"\n"))
                .contains("memory.min_relevance")
                .contains("a number");
        assertThat(fixture.error("[memory]\nrecall_limit = 0\n"))
                .contains("memory.recall_limit")
                .contains("at least 1");
        assertThat(fixture.error("[memory]\nmin_relevanse = 0.5\n"))
                .isEqualTo("unknown key 'memory.min_relevanse' in " + file + "; did you mean 'memory.min_relevance'?");
    }

    @Test
    void consolidationIsDedupeByDefaultAndEachModeAndTheQueueAreRead() {
        // SPEC ME-6: memory.consolidation = off | dedupe | llm, memory.consolidation_queue bounds it
        assertThat(fixture.load(NO_KEYS).memory())
                .extracting(MemorySettings::consolidation, MemorySettings::consolidationQueue)
                .containsExactly(ConsolidationMode.DEDUPE, 64);
        assertThat(fixture.load("[memory]\nconsolidation = \"llm\"\nconsolidation_queue = 8\n")
                        .memory())
                .extracting(MemorySettings::consolidation, MemorySettings::consolidationQueue)
                .containsExactly(ConsolidationMode.LLM, 8);
        assertThat(fixture.load("[memory]\nconsolidation = \"OFF\"\n").memory().consolidation())
                .isEqualTo(ConsolidationMode.OFF);
        assertThat(fixture.error("[memory]\nconsolidation = \"smart\"\n"))
                .contains("memory.consolidation")
                .contains("off, dedupe, llm");
        assertThat(fixture.error("[memory]\nconsolidation_queue = 0\n"))
                .contains("memory.consolidation_queue")
                .contains("at least 1");
    }

    @Test
    void aChangedConsolidationQueueNeedsARestartButTheModeDoesNot() {
        // SPEC ME-6, RT-3: the queue is sized at start; the mode is read for every turn
        var running = fixture.load(NO_KEYS);
        var edited = fixture.load("[memory]\nconsolidation = \"llm\"\nconsolidation_queue = 8\n");
        assertThat(edited.restartOnlyChanges(running)).containsExactly("memory.consolidation_queue");
        var inForce = edited.withRestartOnlyFrom(running).memory();
        assertThat(inForce)
                .extracting(MemorySettings::consolidation, MemorySettings::consolidationQueue)
                .containsExactly(ConsolidationMode.LLM, 64);
    }
}
