package dev.clawgate.core.toolcall;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Inline reasoning blocks: what is cut out and what stays. */
class ThinkTagsTest {

    // SPEC RP-4: reasoning can be shown separately, so it is kept when split off
    @Test
    void splitReturnsTheReasoningOfEveryBlock() {
        ThinkTags.Split s = ThinkTags.split("<think> one </think>Answer<THINK a=\"1\">two</Think> end");
        assertThat(s.visible()).isEqualTo("Answer end");
        assertThat(s.reasoning()).isEqualTo("one\n\ntwo");
    }

    // SPEC RP-2
    @Test
    void anUnclosedBlockRunsToTheEnd() {
        ThinkTags.Split s = ThinkTags.split("visible<think>hidden tail");
        assertThat(s.visible()).isEqualTo("visible");
        assertThat(s.reasoning()).isEqualTo("hidden tail");
    }

    // SPEC RP-2: templates that open the block in the prompt leave only its close tag
    @Test
    void aCloseTagBeforeAnyOpenTagEndsLeadingReasoning() {
        ThinkTags.Split s = ThinkTags.split("I should greet.</think>Hello!");
        assertThat(s.visible()).isEqualTo("Hello!");
        assertThat(s.reasoning()).isEqualTo("I should greet.");
        assertThat(ThinkTags.strip("a<think>b</think>c</think>d")).isEqualTo("ac</think>d");
        assertThat(ThinkTags.strip("</think>Hello")).isEqualTo("Hello");
    }

    // SPEC RP-2
    @Test
    void textWithoutReasoningIsReturnedAsItIs() {
        String text = "  <thinking-cap>worn</thinking-cap>  ";
        assertThat(ThinkTags.strip(text)).isSameAs(text);
        assertThat(ThinkTags.split(text).reasoning()).isEmpty();
        assertThat(ThinkTags.strip(null)).isEmpty();
        assertThat(ThinkTags.split("").visible()).isEmpty();
        assertThat(ThinkTags.split("<think>  </think>x").reasoning()).isEmpty();
    }

    // SPEC RP-2
    @Test
    void searchingIsCaseInsensitiveAndBounded() {
        assertThat(ThinkTags.indexOfIgnoreCase("ab</THINK>", "</think>", 0)).isEqualTo(2);
        assertThat(ThinkTags.indexOfIgnoreCase("ab</THINK>", "</think>", 3)).isEqualTo(-1);
        assertThat(ThinkTags.indexOfIgnoreCase("</think>", "</think>", -5)).isZero();
        assertThat(ThinkTags.indexOfIgnoreCase("</thin", "</think>", 0)).isEqualTo(-1);
    }
}
