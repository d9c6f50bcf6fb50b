package dev.clawgate.core.internal.toolcall;

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

    // SPEC RP-2: a close tag with no open tag is protocol and goes; the text before it stays, as a
    // stream that already showed it must (streamed and whole replies agree)
    @Test
    void aCloseTagWithoutAnOpenTagIsRemovedAndTheTextBeforeItStays() {
        ThinkTags.Split s = ThinkTags.split("I should greet.</think>Hello!");
        assertThat(s.visible()).isEqualTo("I should greet.Hello!");
        assertThat(s.reasoning()).isEmpty();
        assertThat(ThinkTags.strip("a<think>b</think>c</think>d")).isEqualTo("acd");
        assertThat(ThinkTags.strip("</think>Hello")).isEqualTo("Hello");
    }

    // SPEC RP-2, RP-4: every configured name is a reasoning tag; other names and near names are content
    @Test
    void theConfiguredReasoningTagNamesAreTheOnesRemoved() {
        assertThat(ThinkTags.strip("<thinking>x</thinking>A <reasoning>y</reasoning>B <reflection>z</reflection>C"))
                .isEqualTo("A B C");
        assertThat(ThinkTags.split("<plan>p</plan>A", ReasoningTags.of("plan")))
                .isEqualTo(new ThinkTags.Split("A", "p"));
        assertThat(ThinkTags.strip("<thinking-cap>kept</thinking-cap>")).isEqualTo("<thinking-cap>kept</thinking-cap>");
        assertThat(ThinkTags.split("<think>x</think>A", ReasoningTags.of("plan"))
                        .visible())
                .isEqualTo("<think>x</think>A");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReasoningTags.of("bad name"))
                .hasMessageContaining("agent.reasoning_tags");
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
}
