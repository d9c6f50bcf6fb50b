package dev.clawgate.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A provider's configured phrases join the one detector (SPEC HI-5: CLI overflow_patterns, Gemini's wording). */
class OverflowDetectorExtraPhrasesTest {
    @Test
    void theSeedsKiroNoticeAndGeminisWordingAreOverflows() {
        // SPEC HI-5: seed 001 §7.3 / §9.3, the phrase ZeroClaw's list missed
        assertThat(OverflowDetector.isContextOverflow("The context window has overflowed, summarizing..."))
                .isTrue();
        assertThat(OverflowDetector.isContextOverflow(
                        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."))
                .isTrue();
    }

    @Test
    void extraPhrasesMatchCaseInsensitivelyAndOnlyAddToTheBuiltInOnes() {
        List<String> extra = List.of("Context budget exhausted");
        assertThat(OverflowDetector.isContextOverflow("Error: context BUDGET exhausted (412000 of 400000)", extra))
                .isTrue();
        assertThat(OverflowDetector.isContextOverflow("Error: context budget exhausted", List.of()))
                .isFalse();
        assertThat(OverflowDetector.isContextOverflow("prompt is too long", extra))
                .isTrue();
        assertThat(OverflowDetector.isContextOverflow("rate limited", extra)).isFalse();
        assertThat(OverflowDetector.isContextOverflow("anything", java.util.Arrays.asList("", " ", null)))
                .isFalse();
        assertThat(OverflowDetector.isContextOverflow(null, extra)).isFalse();
    }
}
