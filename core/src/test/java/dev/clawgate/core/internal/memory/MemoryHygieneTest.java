package dev.clawgate.core.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.testing.InMemoryMemory;
import dev.clawgate.core.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MemoryHygieneTest {
    private static final MemoryScope ALICE = MemoryScope.sender("test", "alice");

    @Test
    void conversationMemoriesOlderThanTheMaxAgeGoAndKeptFactsStay() {
        // SPEC ME-7, OP-7: auto-saved memories age out; what the agent chose to keep does not
        ManualClock clock = new ManualClock(Instant.parse("2025-03-01T00:00:00Z"));
        InMemoryMemory memory = new InMemoryMemory(clock);
        memory.store(ALICE, "old", "an old remark about the weather", MemoryEntry.CONVERSATION);
        memory.store(ALICE, "fact", "Alice lives in Porto", MemoryEntry.CORE);
        clock.advance(Duration.ofDays(30));
        memory.store(ALICE, "recent", "a recent remark about the weather", MemoryEntry.CONVERSATION);
        clock.advance(Duration.ofMillis(1));

        MemorySettings defaults = MemorySettings.defaults();
        assertThat(defaults.conversationMaxAge()).isEqualTo(Duration.ofDays(30));
        assertThat(MemoryHygiene.expire(memory, defaults, clock.instant())).isEqualTo(1);
        assertThat(memory.all()).extracting(MemoryEntry::key).containsExactly("fact", "recent");
    }

    @Test
    void aZeroMaxAgeOrDisabledMemoryKeepsEverything() {
        InMemoryMemory memory = new InMemoryMemory(java.time.Clock.systemUTC());
        memory.store(ALICE, "old", "an old remark about the weather", MemoryEntry.CONVERSATION);
        MemorySettings d = MemorySettings.defaults();
        MemorySettings forever = new MemorySettings(true, true, 20, 5, 0.4, 4, 800, 4000, 4000, 100, Duration.ZERO);
        Instant farFuture = Instant.now().plus(Duration.ofDays(3650));
        assertThat(MemoryHygiene.expire(memory, forever, farFuture)).isZero();
        assertThat(MemoryHygiene.expire(memory, d.disabled(), farFuture)).isZero();
        assertThat(memory.all()).hasSize(1);
    }

    @Test
    void theHourlyUpkeepTidiesTheKeywordIndexWhileMemoryIsOn() {
        // SPEC ME-5, issue 27: the hourly job merges the keyword index (SQLite FTS5 optimize); memory off, nothing
        InMemoryMemory memory = new InMemoryMemory(java.time.Clock.systemUTC());
        MemoryHygiene.optimize(memory, MemorySettings.defaults());
        assertThat(memory.optimized()).isEqualTo(1);
        MemoryHygiene.optimize(memory, MemorySettings.defaults().disabled());
        assertThat(memory.optimized()).isEqualTo(1);
    }
}
