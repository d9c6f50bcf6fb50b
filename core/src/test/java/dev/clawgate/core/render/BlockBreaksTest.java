package dev.clawgate.core.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.internal.render.BlockStreaming.BreakPreference;
import dev.clawgate.core.render.Cutter.Cut;
import org.junit.jupiter.api.Test;

/**
 * Where a streamed block ends, by the break preference, before and after the buffer outgrew the block limit (SPEC
 * OUT-2).
 */
class BlockBreaksTest {
    private static final String PROSE = "One two.\n\nThree four\nfive six. seven eight";

    /**
     * The block the chosen cut makes of {@code text} (the text so far; more may follow), or null when there is no cut.
     */
    private static String block(String text, BreakPreference preference, int maxUnits, boolean forced, int min) {
        Layout layout = new Layout(text, TextMeasure.utf16());
        int start = layout.contentStart(0);
        Cut cut = new BlockBreaks(ChunkLimits.of(maxUnits), preference).choose(layout, start, forced, min);
        return cut == null ? null : Cutter.render(layout, start, "", cut);
    }

    @Test
    void paragraphPreferenceEndsAtTheLastBlankLine() {
        // SPEC OUT-2: the last blank line first
        assertThat(block(PROSE, BreakPreference.PARAGRAPH, 100, false, 0)).isEqualTo("One two.");
    }

    @Test
    void newlinePreferenceEndsAtTheLastLineBreak() {
        // SPEC OUT-2 break_preference=newline: any line break before a sentence end
        assertThat(block(PROSE, BreakPreference.NEWLINE, 100, false, 0)).isEqualTo("One two.\n\nThree four");
    }

    @Test
    void sentencePreferenceEndsAtTheLaterOfSentenceEndAndLineBreak() {
        // SPEC OUT-2 break_preference=sentence
        assertThat(block(PROSE, BreakPreference.SENTENCE, 100, false, 0))
                .isEqualTo("One two.\n\nThree four\nfive six.");
        assertThat(block("One two. three\nfour five", BreakPreference.SENTENCE, 100, false, 0))
                .isEqualTo("One two. three");
    }

    @Test
    void eachPreferenceFallsBackToWeakerBreaksButNeverAHardCutUnforced() {
        // SPEC OUT-2: whitespace before a hard cut, and a hard cut only when forced
        for (BreakPreference p : BreakPreference.values()) {
            assertThat(block("alpha beta gamma", p, 100, false, 0)).as(p.name()).isEqualTo("alpha beta");
            assertThat(block("alpha. beta gamma", p, 100, false, 0))
                    .as(p.name())
                    .isEqualTo("alpha.");
            assertThat(block("alphabetagamma", p, 100, false, 0)).as(p.name()).isNull();
        }
        assertThat(block("One two.\nthree four", BreakPreference.PARAGRAPH, 100, false, 0))
                .as("a line break before a sentence end")
                .isEqualTo("One two.");
    }

    @Test
    void aCutLeavingLessThanTheMinimumIsNotTaken() {
        // SPEC OUT-2 min_chars: the blank line at or past min_chars
        assertThat(block("Hi.\n\nA longer paragraph here\n\nrest", BreakPreference.PARAGRAPH, 100, false, 10))
                .isEqualTo("Hi.\n\nA longer paragraph here");
        assertThat(block("Hi.\n\nrest", BreakPreference.PARAGRAPH, 100, false, 10))
                .isNull();
    }

    @Test
    void onlyAForcedCutGoesInsideAFenceWhichItClosesAndThenCutsHard() {
        // SPEC OUT-2: never inside an open fence unless the buffer outgrew max_chars; a hard cut is the last resort
        String code = "```\nline one\nline two\nline three";
        assertThat(block(code, BreakPreference.PARAGRAPH, 30, false, 0)).isNull();
        assertThat(block(code, BreakPreference.PARAGRAPH, 30, true, 0)).isEqualTo("```\nline one\nline two\n```");
        assertThat(block("abcdefghijklmnop", BreakPreference.PARAGRAPH, 10, true, 0))
                .isEqualTo("abcdefghij");
        assertThat(block("```\nabcdefghijklmnop", BreakPreference.PARAGRAPH, 12, true, 0))
                .isEqualTo("```\nabcd\n```");
    }

    @Test
    void aForcedCutStillPrefersABreakOutsideTheFence() {
        // SPEC OUT-2
        assertThat(block("Intro text\n```\nline one\nline two", BreakPreference.PARAGRAPH, 30, true, 0))
                .isEqualTo("Intro text");
    }
}
