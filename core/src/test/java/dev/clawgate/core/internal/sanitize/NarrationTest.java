package dev.clawgate.core.internal.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.internal.sanitize.Narration.Verdict;
import org.junit.jupiter.api.Test;

/** Which line openings are tool narration, decided as early as a line allows. */
class NarrationTest {

    // SPEC RP-2
    @Test
    void aCompleteLineIsAlwaysDecided() {
        assertThat(Narration.verdict("Let me check.", true)).isEqualTo(Verdict.YES);
        assertThat(Narration.verdict("let me", true)).isEqualTo(Verdict.NO);
        assertThat(Narration.verdict("Let me know", true)).isEqualTo(Verdict.NO);
        assertThat(Narration.verdict("", true)).isEqualTo(Verdict.NO);
        assertThat(Narration.isNarration("  I\u2019M GOING TO look")).isTrue();
    }

    // SPEC RP-2
    @Test
    void anIncompleteLineWaitsOnlyWhileItCouldGoEitherWay() {
        assertThat(Narration.verdict("", false)).isEqualTo(Verdict.UNDECIDED);
        assertThat(Narration.verdict("Let me ", false)).isEqualTo(Verdict.UNDECIDED);
        assertThat(Narration.verdict("Let me k", false)).isEqualTo(Verdict.UNDECIDED);
        assertThat(Narration.verdict("Let me c", false)).isEqualTo(Verdict.YES);
        assertThat(Narration.verdict("Hold on", false)).isEqualTo(Verdict.YES);
        assertThat(Narration.verdict("Hol", false)).isEqualTo(Verdict.UNDECIDED);
        assertThat(Narration.verdict("Hello", false)).isEqualTo(Verdict.NO);
        assertThat(Narration.verdict("Let me know", false)).isEqualTo(Verdict.NO);
    }
}
