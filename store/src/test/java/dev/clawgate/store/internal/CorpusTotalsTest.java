package dev.clawgate.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CorpusTotalsTest {
    final AtomicLong now = new AtomicLong(1_000);
    final CorpusTotals totals = new CorpusTotals(now::get);
    final AtomicInteger counted = new AtomicInteger();

    long[] ask(List<String> scopes, long entries) throws Exception {
        return totals.of(scopes, () -> {
            counted.incrementAndGet();
            return new long[] {entries, entries * 7};
        });
    }

    @Test
    void aSmallScopeSetIsCountedAtEveryRecall() throws Exception {
        // SPEC ME-3 (issue 27): exact where one entry more or less moves a score
        assertThat(ask(List.of("s:a"), 10)).containsExactly(10, 70);
        assertThat(ask(List.of("s:a"), 11)).containsExactly(11, 77);
        assertThat(counted).hasValue(2);
    }

    @Test
    void aLargeScopeSetIsCountedOncePerTtlAndPerSet() throws Exception {
        // SPEC ME-3 (issue 27): recall does not read a whole large scope every time; the figure is at most TTL old
        long large = CorpusTotals.EXACT_BELOW;
        assertThat(ask(List.of("s:a", "global"), large)).containsExactly(large, large * 7);
        assertThat(ask(List.of("s:a", "global"), large + 5)).containsExactly(large, large * 7);
        assertThat(ask(List.of("s:b", "global"), large + 9)).containsExactly(large + 9, (large + 9) * 7);
        assertThat(counted).hasValue(2);

        now.addAndGet(CorpusTotals.TTL_NANOS);
        assertThat(ask(List.of("s:a", "global"), large + 5)).containsExactly(large + 5, (large + 5) * 7);
        assertThat(counted).hasValue(3);
    }

    @Test
    void aScopeSetThatShrankBelowTheThresholdIsCountedAgainAtOnceAfterItsTtl() throws Exception {
        long large = CorpusTotals.EXACT_BELOW + 1;
        ask(List.of("s:a"), large);
        now.addAndGet(CorpusTotals.TTL_NANOS);
        assertThat(ask(List.of("s:a"), 3)).containsExactly(3, 21);
        assertThat(ask(List.of("s:a"), 2)).containsExactly(2, 14);
        assertThat(counted).hasValue(3);
    }

    @Test
    void aTermsEntryCountIsKeptForALargeSetOnlyAndPerTerm() throws Exception {
        // SPEC ME-3 (issue 27): a common term's document frequency is not recounted at every recall of a large scope
        AtomicInteger termCounts = new AtomicInteger();
        CorpusTotals.TermCount count = () -> termCounts.incrementAndGet() * 10L;
        long large = CorpusTotals.EXACT_BELOW;

        assertThat(totals.withTerm(List.of("s:a"), 5, "mia", count)).isEqualTo(10);
        assertThat(totals.withTerm(List.of("s:a"), 5, "mia", count)).isEqualTo(20);
        assertThat(totals.withTerm(List.of("s:a"), large, "mia", count)).isEqualTo(30);
        assertThat(totals.withTerm(List.of("s:a"), large, "mia", count)).isEqualTo(30);
        assertThat(totals.withTerm(List.of("s:a"), large, "school", count)).isEqualTo(40);
        now.addAndGet(CorpusTotals.TTL_NANOS);
        assertThat(totals.withTerm(List.of("s:a"), large, "mia", count)).isEqualTo(50);
    }
}
