package dev.clawgate.core.internal.toolcall;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What the scanner takes for a markup tag: a name that starts with an ASCII letter, all of it within MAX_TAG on its
 * line.
 */
class TagTest {

    // SPEC RP-2: only markup can be protocol; a '<' that does not open a tag name stays text
    @Test
    void aTagNameStartsWithAnAsciiLetterOfEitherCaseAndWithNothingNextToThatRange() {
        for (char first : new char[] {'a', 'm', 'z', 'A', 'M', 'Z'}) {
            Tag tag = Tag.read("<" + first + "x>", 0, true);
            assertThat(tag.name()).as("<%sx>", first).isEqualTo(("" + first + "x").toLowerCase());
            assertThat(tag.end()).isEqualTo(4);
        }
        for (char first : new char[] {'`', '{', '@', '[', '0', '_', ' '}) {
            assertThat(Tag.read("<" + first + "x>", 0, true)).as("<%sx>", first).isSameAs(Tag.NONE);
        }
    }

    // SPEC AG-1: a tag is bounded, so a run of name characters cannot make the scanner wait for ever
    @Test
    void aTagEndsWithinMaxTagCharactersCountedFromItsOpeningBracket() {
        int max = OutputScanner.MAX_TAG;
        String longest = "t".repeat(max - 1);
        assertThat(Tag.read("<" + longest + ">", 0, true).name()).isEqualTo(longest);
        assertThat(Tag.read("<" + longest + "t>", 0, true)).isSameAs(Tag.NONE);

        String attrs = " ".repeat(max - 3);
        Tag spaced = Tag.read("<ab" + attrs + ">", 0, true);
        assertThat(spaced.name()).isEqualTo("ab");
        assertThat(spaced.end()).isEqualTo(max + 1);
        assertThat(Tag.read("<ab" + attrs + " >", 0, true)).isSameAs(Tag.NONE);
    }

    @Test
    void aTagReadAtAnOffsetCountsItsBoundFromThere() {
        String prefix = "text before ";
        String longest = "t".repeat(OutputScanner.MAX_TAG - 1);
        Tag tag = Tag.read(prefix + "<" + longest + ">", prefix.length(), true);
        assertThat(tag.name()).isEqualTo(longest);
        assertThat(tag.end()).isEqualTo(prefix.length() + OutputScanner.MAX_TAG + 1);
    }
}
