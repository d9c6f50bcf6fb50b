package dev.clawgate.channel.whatsapp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Markdown as WhatsApp's formatting (SPEC CH-12, OUT-1). */
class WhatsAppTextTest {
    @Test
    void boldItalicStrikeLinksAndHeadingsBecomeWhatsAppsOwn() {
        // SPEC CH-12: *bold*, _italic_, ~strike~; links as text (url); headings as bold lines
        assertThat(WhatsAppText.render("**a** and *b* and __c__ and ~~d~~")).isEqualTo("*a* and _b_ and *c* and ~d~");
        assertThat(WhatsAppText.render("see [the docs](https://example.com/x)"))
                .isEqualTo("see the docs (https://example.com/x)");
        assertThat(WhatsAppText.render("## Plan **now**")).isEqualTo("*Plan now*");
        assertThat(WhatsAppText.render("- one\n- two\n> quoted")).isEqualTo("- one\n- two\n> quoted");
    }

    @Test
    void codeSpansAndFencesAreKeptAndAnUnclosedFenceIsClosed() {
        // SPEC OUT-1: a chunk cut inside a fence still renders balanced
        assertThat(WhatsAppText.render("use `**x**` here")).isEqualTo("use `**x**` here");
        assertThat(WhatsAppText.render("```java\nint **x** = 1;\n```")).isEqualTo("```\nint **x** = 1;\n```");
        assertThat(WhatsAppText.render("```\nopen")).isEqualTo("```\nopen\n```");
    }

    @Test
    void renderingNeverLengthensAnUnfencedText() {
        // SPEC OUT-1: a payload cut to the limit stays within it once rendered (seeded; the seed is printed on failure)
        long seed = System.nanoTime();
        Random r = new Random(seed);
        String alphabet = "ab *_~`[]()#-\n>https://x.y/";
        for (int i = 0; i < 5000; i++) {
            StringBuilder s = new StringBuilder();
            for (int n = r.nextInt(60); n > 0; n--) s.append(alphabet.charAt(r.nextInt(alphabet.length())));
            String text = unfenced(s.toString());
            assertThat(WhatsAppText.render(text).length())
                    .as("seed %d, text %s", seed, text)
                    .isLessThanOrEqualTo(text.length());
        }
    }

    /** The text with no fence opener left: neither three backticks nor three tildes (a fence the renderer closes). */
    private static String unfenced(String text) {
        String t = text;
        while (t.contains("```") || t.contains("~~~"))
            t = t.replace("```", "``").replace("~~~", "~~");
        return t;
    }
}
