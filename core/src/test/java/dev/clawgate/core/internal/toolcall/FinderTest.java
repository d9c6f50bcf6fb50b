package dev.clawgate.core.internal.toolcall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.internal.sanitize.IncrementalSanitizer;
import dev.clawgate.core.internal.sanitize.ReplySanitizer;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The memoised search under the scanner: each character compared once per needle, counted exactly (SPEC AG-1: linear
 * work).
 */
class FinderTest {
    // SPEC AG-1: a hit is found by comparing each start once, and asked again it costs nothing
    @Test
    void aHitCostsOneStepPerStartAndIsRememberedForEarlierStarts() {
        Finder f = new Finder("xxxxAb");
        assertThat(f.find("ab", 0)).isEqualTo(4);
        assertThat(f.steps()).isEqualTo(5);
        assertThat(f.find("ab", 2)).isEqualTo(4);
        assertThat(f.find("ab", 4)).isEqualTo(4);
        assertThat(f.steps()).isEqualTo(5);
        assertThat(f.find("ab", 5)).isEqualTo(-1);
        assertThat(f.steps()).isEqualTo(5);
        assertThat(f.find("b", 0)).isEqualTo(5);
        assertThat(f.steps()).isEqualTo(11);
        f.count(4);
        assertThat(f.steps()).isEqualTo(15);
    }

    // SPEC AG-1: a miss is not searched again over the same characters when the text grows
    @Test
    void aMissResumesWhereItStoppedWhenTheTextGrows() {
        StringBuilder text = new StringBuilder("xxxx");
        Finder f = new Finder(text);
        assertThat(f.find("ab", 0)).isEqualTo(-1);
        assertThat(f.steps()).isEqualTo(3);
        assertThat(f.find("ab", 1)).isEqualTo(-1);
        assertThat(f.steps()).isEqualTo(3);
        text.append("ab");
        f.reset(text);
        assertThat(f.find("ab", 1)).isEqualTo(4);
        assertThat(f.steps()).isEqualTo(5);
        assertThat(f.find("ab", 0)).isEqualTo(4);
        assertThat(f.steps()).as("from before the memo: searched again").isEqualTo(10);
    }

    // SPEC AG-1: dropping a decided prefix shifts what is remembered, and forgets what began before it
    @Test
    void droppingAPrefixShiftsTheMemos() {
        StringBuilder text = new StringBuilder("xxxxabyy");
        Finder f = new Finder(text);
        assertThat(f.find("ab", 2)).isEqualTo(4);
        assertThat(f.find("zz", 0)).isEqualTo(-1);
        long before = f.steps();
        text.delete(0, 2);
        f.dropPrefix(text, 2);
        assertThat(f.find("ab", 0)).isEqualTo(2);
        assertThat(f.steps()).as("the shifted hit is remembered").isEqualTo(before);
        assertThat(f.find("zz", 0)).isEqualTo(-1);
        assertThat(f.steps()).as("a memo from before the cut is forgotten").isGreaterThan(before);
    }

    // SPEC AG-1: matching ignores case and never reads outside the text
    @Test
    void matchingIgnoresCaseAndStaysInside() {
        Finder f = new Finder("aB");
        assertThat(f.matchesAt("ab", 0)).isTrue();
        assertThat(f.matchesAt("ab", -1)).isFalse();
        assertThat(f.matchesAt("ab", 1)).isFalse();
        assertThat(f.matchesAt("b", 1)).isTrue();
        assertThat(f.matchesAt("c", 1)).isFalse();
    }

    // SPEC RP-2: a reply longer than the stream's buffer keeps (compaction drops what is decided) streams as it
    // sanitises whole
    @Test
    void aLongStreamThatDropsItsDecidedPrefixStreamsAsWhole() {
        Set<String> tools = Set.of("shell");
        StringBuilder reply = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            reply.append("paragraph ")
                    .append(i)
                    .append(" ")
                    .append("word ".repeat(60))
                    .append("\n\n");
            if (i % 7 == 3)
                reply.append("<tool_call>{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}</tool_call>\n");
            if (i % 9 == 4) reply.append("```tool_call\n{\"name\":\"shell\",\"arguments\":{}}\n```\n");
            if (i % 11 == 5) reply.append("<think>").append("plan ".repeat(200)).append("</think>");
        }
        String text = reply.toString();
        String whole = ReplySanitizer.sanitize(text, tools);
        for (int piece : new int[] {1, 7, 64, 5000}) {
            IncrementalSanitizer s = new IncrementalSanitizer(tools);
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < text.length(); i += piece)
                out.append(s.push(text.substring(i, Math.min(text.length(), i + piece))));
            assertThat(out.append(s.finish()).toString())
                    .as("pieces of %d", piece)
                    .isEqualTo(whole);
        }
        assertThat(whole).doesNotContain("tool_call").doesNotContain("plan").contains("paragraph 39");
        assertThat(ToolCallParser.parse(text, tools, ReasoningTags.DEFAULT).calls())
                .hasSize(10);
    }
}
