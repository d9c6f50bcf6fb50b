package dev.clawgate.core.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.testing.InMemoryMemory;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The dedupe half of consolidation (SPEC ME-6, ME-7): near-identical memories merge into the newest; different ones
 * stay.
 */
class NearDuplicatesTest {

    @Test
    void theSameWordsWithOtherCasePunctuationOrOrderAreNearDuplicates() {
        // SPEC ME-7: identical memories are stored once, by meaning as well as by hash
        assertThat(NearDuplicates.similar(
                        "Remember: the deploy window is Tuesday!", "remember, the deploy window is tuesday"))
                .isTrue();
        assertThat(NearDuplicates.similar("My cat is named Pixel", "my cat is named pixel."))
                .isTrue();
        assertThat(NearDuplicates.similar(
                        "the deploy window is Tuesday afternoon at three",
                        "the deploy window is Tuesday afternoon at 3"))
                .isFalse();
    }

    @Test
    void aLongSentenceWithOneWordMoreIsANearDuplicateButANegationNeverIs() {
        // SPEC ME-6: merge near-duplicates; a contradiction is not a duplicate
        String base = "remember that our team standup moves to the big room on the third floor every monday morning";
        assertThat(NearDuplicates.similar(base, base + " please")).isTrue();
        assertThat(NearDuplicates.similar(base, base.replace("moves", "never moves")))
                .isFalse();
        assertThat(NearDuplicates.similar(
                        "I can swim in the lake near the house", "I can't swim in the lake near the house"))
                .isFalse();
    }

    @Test
    void shortTextsMustHaveTheSameWordsAndEmptyOnesNeverMatch() {
        // SPEC ME-6: few words leave no room for "nearly"
        assertThat(NearDuplicates.similar("I like tea", "I like green tea")).isFalse();
        assertThat(NearDuplicates.similar("", "")).isFalse();
        assertThat(NearDuplicates.similar("!!!", "???")).isFalse();
    }

    @Test
    void absorbForgetsTheOlderNearDuplicatesOfTheKeptEntriesAndNothingElse() {
        // SPEC ME-6, ME-7: the newest wording stays, the others in the scope go; other scopes and categories are
        // untouched
        InMemoryMemory memory = new InMemoryMemory(Clock.systemUTC());
        MemoryScope alice = MemoryScope.sender("test", "alice");
        MemoryScope bob = MemoryScope.sender("test", "bob");
        memory.store(alice, "m1", "Remember: the deploy window is Tuesday", MemoryEntry.CONVERSATION);
        memory.store(alice, "m2", "I prefer green tea in the morning", MemoryEntry.CONVERSATION);
        memory.store(alice, "pinned", "remember the deploy window is tuesday", MemoryEntry.CORE);
        memory.store(bob, "b1", "remember, the deploy window is Tuesday", MemoryEntry.CONVERSATION);
        MemoryEntry fresh =
                memory.store(alice, "m3", "remember, the deploy window is Tuesday!", MemoryEntry.CONVERSATION);

        List<MemoryEntry> gone = NearDuplicates.absorb(
                memory, alice, List.of(fresh), e -> MemoryEntry.CONVERSATION.equals(e.category()));

        assertThat(gone).extracting(MemoryEntry::key).containsExactly("m1");
        assertThat(memory.all()).extracting(MemoryEntry::key).containsExactlyInAnyOrder("m2", "pinned", "b1", "m3");
    }
}
