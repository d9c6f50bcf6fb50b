package dev.clawgate.core.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.testing.InMemoryMemory;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryContextTest {
    private static final MemorySettings DEFAULTS = MemorySettings.defaults();
    private static final MemoryScope ALICE = MemoryScope.sender("slack", "alice");
    private static long ids = 1;

    private static Recalled recalled(String key, String content, double score) {
        return new Recalled(
                new MemoryEntry(ids++, ALICE, key, content, MemoryEntry.CORE, Instant.EPOCH, Instant.EPOCH), score);
    }

    @Test
    void entriesBelowMinRelevanceAreNotInjected() {
        // SPEC ME-3, ME-7: min_relevance 0.4 on the normalised score
        List<MemoryLine> lines =
                MemoryContext.filter(List.of(recalled("a", "kept", 0.4), recalled("b", "dropped", 0.39)), DEFAULTS);
        assertThat(lines).containsExactly(new MemoryLine("a", "kept"));
    }

    @Test
    void imagesToolResultsHistoryKeysAndOversizedEntriesAreSkipped() {
        // SPEC ME-3: skip [IMAGE:, <tool_result>, *_history keys, entries over 4,000 characters
        List<Recalled> in = List.of(
                recalled("img", "see [IMAGE:/tmp/a.png]", 0.9),
                recalled("tool", "<tool_result>ls</tool_result>", 0.9),
                recalled("telegram_alice_history", "old turns", 0.9),
                recalled("huge", "x".repeat(4_001), 0.9),
                recalled("fine", "x".repeat(4_000), 0.9));
        assertThat(MemoryContext.filter(in, DEFAULTS))
                .extracting(MemoryLine::key)
                .containsExactly("fine");
    }

    @Test
    void eachEntryIsCutTo800AndTheContextHoldsAtMostFourEntriesAnd4000Characters() {
        // SPEC ME-3: cut each to 800 characters; at most 4 entries and 4,000 characters in all
        List<Recalled> many = new ArrayList<>();
        for (int i = 0; i < 6; i++) many.add(recalled("k" + i, "short " + i, 0.9));
        assertThat(MemoryContext.filter(many, DEFAULTS)).hasSize(4);

        List<MemoryLine> cut = MemoryContext.filter(List.of(recalled("long", "y".repeat(3_000), 0.9)), DEFAULTS);
        assertThat(cut.getFirst().content()).hasSize(800).endsWith("…");

        List<Recalled> big = new ArrayList<>();
        for (int i = 0; i < 4; i++) big.add(recalled("b" + i, "z".repeat(1_500), 0.9));
        List<MemoryLine> bounded = MemoryContext.filter(big, DEFAULTS);
        int total = bounded.stream()
                .mapToInt(l -> 4 + l.key().length() + l.content().length())
                .sum();
        assertThat(total).isLessThanOrEqualTo(4_000);
        assertThat(bounded).hasSize(4);
        MemorySettings tight =
                new MemorySettings(true, true, 20, 5, 0.4, 4, 800, 1_000, 4_000, 100, java.time.Duration.ZERO);
        assertThat(MemoryContext.filter(big, tight)).hasSize(1);
    }

    @Test
    void aGroupTurnRecallsTheSendersAndTheRoomsMemoriesMergedWithoutDuplicates() {
        // SPEC ME-2: dual-scope recall, merged and deduplicated
        InMemoryMemory memory = new InMemoryMemory(Clock.systemUTC());
        SessionKey room = new SessionKey("slack", null, ChatType.GROUP, "C1", null, null);
        InboundMessage m = new InboundMessage(
                "9",
                "slack",
                null,
                "alice",
                null,
                "C1",
                null,
                null,
                ChatType.GROUP,
                true,
                Instant.EPOCH,
                "when is the release party",
                List.of(),
                null);
        memory.store(ALICE, "a", "alice brings cake to the release party", MemoryEntry.CORE);
        memory.store(MemoryScope.session(room), "r", "the release party is on friday", MemoryEntry.CORE);
        memory.store(MemoryScope.session(room), "dup", "alice brings cake to the release party", MemoryEntry.CORE);
        memory.store(MemoryScope.sender("slack", "bob"), "b", "bob skips the release party", MemoryEntry.CORE);

        List<Recalled> got = MemoryContext.recall(memory, MemoryScopes.of(m, room), m.text(), DEFAULTS);

        assertThat(got).extracting(r -> r.entry().key()).containsExactlyInAnyOrder("a", "r");
        assertThat(got).isSortedAccordingTo((x, y) -> Double.compare(y.score(), x.score()));
    }
}
