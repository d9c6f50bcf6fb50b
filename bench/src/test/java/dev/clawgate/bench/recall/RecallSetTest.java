package dev.clawgate.bench.recall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import org.junit.jupiter.api.Test;

class RecallSetTest {
    @Test
    void theLabelledSetHasTwoHundredMemoriesAHundredQueriesAndParaphrasesShareNoIndexedTerm() {
        // SPEC ME-5 (issue 25): >= 200 memories, >= 100 queries, half paraphrases with no shared keyword
        RecallSet set = RecallSet.load();
        assertThat(set.memories()).hasSizeGreaterThanOrEqualTo(200);
        assertThat(new HashSet<>(
                        set.memories().stream().map(RecallSet.Memory::text).toList()))
                .hasSameSizeAs(set.memories());
        assertThat(set.queries()).hasSizeGreaterThanOrEqualTo(100);
        assertThat(set.queries().stream().filter(RecallSet.Query::paraphrase))
                .hasSize(set.queries().size() / 2)
                .allSatisfy(q -> assertThat(set.sharedTerms(q)).as(q.text()).isEmpty());
        assertThat(set.queries().stream().filter(q -> !q.paraphrase()))
                .allSatisfy(q -> assertThat(set.sharedTerms(q)).as(q.text()).isNotEmpty());
    }
}
