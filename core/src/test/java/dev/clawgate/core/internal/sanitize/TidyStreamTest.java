package dev.clawgate.core.internal.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The layout step on its own: what it sends at once, what it holds, and what the end drops (SPEC RP-2). */
class TidyStreamTest {
    private static String tidy(String text) {
        TidyStream t = new TidyStream();
        return t.push(text) + t.finish();
    }

    // SPEC RP-2: leading blank lines go, the first line's indentation stays
    @Test
    void leadingBlankLinesGoAndTheFirstIndentationStays() {
        TidyStream t = new TidyStream();
        assertThat(t.push("  \n")).isEmpty();
        assertThat(t.push("  x")).isEqualTo("  x");
        assertThat(tidy(" \n \n\tx ")).isEqualTo("\tx ");
    }

    // SPEC RP-2: up to one blank line is sent at once; more are dropped with their spaces; the next line keeps its
    // indentation
    @Test
    void oneBlankLineGoesAtOnceAndMoreAreDropped() {
        TidyStream t = new TidyStream();
        assertThat(t.push("a\n")).isEqualTo("a\n");
        assertThat(t.push(" \n")).isEqualTo(" \n");
        assertThat(t.push("  ")).isEmpty();
        assertThat(t.push("\n")).isEmpty();
        assertThat(t.push("   ")).isEmpty();
        assertThat(t.push("b")).isEqualTo("   b");
        assertThat(t.push("\n\n  ")).isEqualTo("\n\n");
        assertThat(t.finish()).isEmpty();
        assertThat(tidy("a\n\n  \n\n  b\n\n  ")).isEqualTo("a\n\n  b\n\n");
    }
}
