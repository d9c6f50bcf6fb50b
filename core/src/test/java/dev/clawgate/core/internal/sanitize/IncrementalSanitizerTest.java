package dev.clawgate.core.internal.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The streaming sanitiser: what it emits at once, what it holds back, and what never comes out. */
class IncrementalSanitizerTest {
    private static final Set<String> TOOLS = Set.of("shell");

    /** Every push's output, then finish's, as separate entries. */
    private static List<String> stream(IncrementalSanitizer s, String... deltas) {
        List<String> out = new ArrayList<>();
        for (String d : deltas) out.add(s.push(d));
        out.add(s.finish());
        return out;
    }

    private static String all(String... deltas) {
        return String.join("", stream(new IncrementalSanitizer(TOOLS), deltas));
    }

    // SPEC RP-2: plain text is not delayed
    @Test
    void plainTextIsEmittedAsItArrives() {
        assertThat(stream(new IncrementalSanitizer(), "Hello ", "world.\nSecond", " line"))
                .containsExactly("Hello ", "world.\n", "Second line", "");
        IncrementalSanitizer s = new IncrementalSanitizer(null);
        assertThat(s.push(null)).isEmpty();
        assertThat(s.push("")).isEmpty();
    }

    // SPEC RP-2: a possible tag start is held until resolved
    @Test
    void aPossibleTagStartIsHeldUntilTheNextCharactersDecideIt() {
        assertThat(stream(new IncrementalSanitizer(), "Answer: a <", "b> and 3 < 4", " <5", ""))
                .containsExactly("Answer: a ", "<b> and 3 < 4", " <5", "", "");
        assertThat(stream(new IncrementalSanitizer(), "Answer <tool_c")).containsExactly("Answer ", "<tool_c");
        assertThat(stream(new IncrementalSanitizer(), "Answer <tool_call ", "x=1>secret"))
                .containsExactly("Answer ", "", "");
        assertThat(stream(new IncrementalSanitizer(), "Answer <bold ", "x=1>fine"))
                .containsExactly("Answer ", "<bold x=1>fine", "");
        assertThat(all("Answer <a <think>x</think>")).isEqualTo("Answer <a ");
        assertThat(all("x <" + "a".repeat(300))).isEqualTo("x <" + "a".repeat(300));
    }

    // SPEC RP-2, RP-4: block content never comes out
    @Test
    void reasoningToolCallsAndResultsNeverComeOut() {
        assertThat(all("Hi <thi", "nk>secret pl", "an</th", "ink> there")).isEqualTo("Hi  there");
        assertThat(all("Hi <tool_call>{\"name\":\"shell\"}</tool", "_call> there"))
                .isEqualTo("Hi  there");
        assertThat(all("Hi <minimax:tool_call><invoke name='x'><parameter "
                        + "name='a'>1</parameter></invoke>\n</minimax:tool_call> there"))
                .isEqualTo("Hi  there");
        assertThat(all("Hi <tool_result name=\"x\">out</tool_result> there </tool_result>"))
                .isEqualTo("Hi  there ");
        assertThat(all("Hi <think>never closed ", "and more")).isEqualTo("Hi ");
        assertThat(all("Hi <tool_call>{\"a\":1}" + "x".repeat(100) + "<", "/tool_call>ok"))
                .isEqualTo("Hi ok");
    }

    // SPEC RP-4, RP-2: inline reasoning is taken out of the text and kept for the reasoning stream, wherever the pieces
    // were cut
    @Test
    void inlineReasoningIsDivertedToTheReasoningStreamWhereverThePiecesAreCut() {
        String text = "Hi <think>plan: greet, then 1 < 2</think>there <thinking-cap> on";
        for (int a = 0; a <= text.length(); a++) {
            for (int b = a; b <= text.length(); b += 3) {
                IncrementalSanitizer s = new IncrementalSanitizer(TOOLS);
                StringBuilder visible = new StringBuilder();
                StringBuilder reasoning = new StringBuilder();
                for (String piece : List.of(text.substring(0, a), text.substring(a, b), text.substring(b))) {
                    visible.append(s.push(piece));
                    reasoning.append(s.takeReasoning());
                }
                visible.append(s.finish());
                reasoning.append(s.takeReasoning());
                assertThat(visible.toString()).as("cut at %d and %d", a, b).isEqualTo("Hi there <thinking-cap> on");
                assertThat(reasoning.toString()).as("cut at %d and %d", a, b).isEqualTo("plan: greet, then 1 < 2");
            }
        }
    }

    // SPEC RP-4: an unclosed block's reasoning runs to the end; taking it empties it
    @Test
    void anUnclosedThinkBlockIsReasoningToTheEndAndIsTakenOnce() {
        IncrementalSanitizer s = new IncrementalSanitizer();
        assertThat(s.push("Ok <think>still ")).isEqualTo("Ok ");
        assertThat(s.takeReasoning()).isEqualTo("still ");
        assertThat(s.takeReasoning()).isEmpty();
        assertThat(s.push("thinking <")).isEmpty();
        assertThat(s.takeReasoning()).isEqualTo("thinking ");
        assertThat(s.finish()).isEmpty();
        assertThat(s.takeReasoning()).isEqualTo("<");
        assertThat(new IncrementalSanitizer().takeReasoning()).isEmpty();
    }

    // SPEC RP-2: <tools> is decided once it closes
    @Test
    void aToolsBlockIsHeldAndDecidedWhenItCloses() {
        assertThat(all("A <tools>{\"name\":\"shell\",\"arguments\":{}}</tools> B"))
                .isEqualTo("A  B");
        assertThat(all("A <tools>just a list</tools> B"))
                .as("a declaration is protocol")
                .isEqualTo("A  B");
        assertThat(all("A <tools>{\"name\":\"shell\",\"arguments\":{}}")).isEqualTo("A ");
    }

    // SPEC RP-2: fences and line-level protocol
    @Test
    void toolFencesAndToolLinesAreDropped() {
        assertThat(all("Intro\n``", "`tool_call\n{\"name\":\"shell\"}\n`", "``\nAfter"))
                .isEqualTo("Intro\nAfter");
        assertThat(all("Intro\n```tool shell\n{}\n```")).isEqualTo("Intro\n");
        assertThat(all("Intro\n```json\n{\"name\":\"shell\",\"arguments\":{}}\n```\n{\"result\":1}\nAfter"))
                .isEqualTo("Intro\nAfter");
        assertThat(all("Intro\n```json\n{\"name\":\"other\",\"arguments\":{}}\n```\nAfter"))
                .isEqualTo("Intro\n```json\n{\"name\":\"other\",\"arguments\":{}}\n```\nAfter");
        assertThat(all("Intro\n```json\n{\"a\":\"<think>x</think>\"}\n```\n"))
                .isEqualTo("Intro\n```json\n{\"a\":\"\"}\n```\n");
        assertThat(all("Intro\n```json\n{\"a\":1}")).isEqualTo("Intro\n```json\n{\"a\":1}");
        assertThat(all("Intro\n```python\nprint(1)\n```\n")).isEqualTo("Intro\n```python\nprint(1)\n```\n");
        assertThat(all("Intro\n{\"name\":\"shell\",\"arguments\":{}}\n  [Tool "
                        + "results]\n{\"tool_call_id\":\"c\"}\n[link](x)\nEnd"))
                .isEqualTo("Intro\n[link](x)\nEnd");
        assertThat(all("Intro\nTOOL_CALL\n{tool => \"shell\"}\n/TOOL_CALL\nAfter\nTOOL_CALLS are fine\nTOOL"))
                .isEqualTo("Intro\nAfter\nTOOL_CALLS are fine\nTOOL");
        assertThat(all("Intro\n``")).isEqualTo("Intro\n``");
        assertThat(all("Intro\n```tool_call\n{\"name\":\"shell\"}")).isEqualTo("Intro\n");
    }

    // SPEC RP-2: leading narration and an echoed tool summary
    @Test
    void leadingNarrationAndToolSummaryAreDropped() {
        assertThat(stream(
                        new IncrementalSanitizer(),
                        "[Used to",
                        "ols: shell] ",
                        "Let me check.\n",
                        "\nIt is ",
                        "sunny."))
                .containsExactly("", "", "", "It is ", "sunny.", "");
        assertThat(all("Let me check that for you.")).isEqualTo("Let me check that for you.");
        assertThat(all("  Let me check.\n\n")).isEqualTo("Let me check.");
        assertThat(all("Let me know if you need more.")).isEqualTo("Let me know if you need more.");
        assertThat(all("[Used tools: a\nb] stays")).isEqualTo("[Used tools: a\nb] stays");
        assertThat(all("[Use")).isEqualTo("[Use");
        assertThat(all("[Used tools: a")).isEqualTo("[Used tools: a");
        assertThat(all("   ")).isEmpty();
        assertThat(all("\n\nHello")).isEqualTo("Hello");
    }

    // SPEC RP-2: whatever is decided is emitted by the same push
    @Test
    void eachPushEmitsEverythingItCanDecide() {
        IncrementalSanitizer s = new IncrementalSanitizer();
        assertThat(s.push("x <3> y")).isEqualTo("x <3> y");
        assertThat(s.push(" <b> y")).isEqualTo(" <b> y");
        assertThat(s.push(" </think> y")).isEqualTo("  y");
        assertThat(s.push(" <think>a</think> y")).isEqualTo("  y");
        assertThat(s.push(" <tools>a</tools> y")).isEqualTo("  y");
        assertThat(s.push(" <tool_call>{}</tool_call> y")).isEqualTo("  y");
        assertThat(s.push(" <5 y")).isEqualTo(" <5 y");
        assertThat(s.finish()).isEmpty();
    }

    // SPEC RP-2: a tag start is never held without bound
    @Test
    void anOverlongTagIsNotHeldBack() {
        IncrementalSanitizer s = new IncrementalSanitizer();
        String longAttrs = "<think " + "x".repeat(250);
        assertThat(s.push("a " + longAttrs)).isEqualTo("a " + longAttrs);
    }

    // SPEC RP-2: fenced content keeps its lines exactly, blank ones too, fence after fence
    @Test
    void fencesKeepTheirBlankLinesAndDoNotLeakIntoEachOther() {
        String two = "A\n```json\n{\"a\":1}\n\n```\nB\n```json\n{\"b\":2}\n```\nC";
        assertThat(all(two)).isEqualTo(two);
        assertThat(all("A\n```tool_call\n\n{\"name\":\"shell\"}\n```\nB")).isEqualTo("A\nB");
        assertThat(all("A\n\nTOOL_CALL\n\n{tool => \"shell\"}\n/TOOL_CALL\nB")).isEqualTo("A\n\nB");
    }

    // SPEC RP-2: a partial close tag left at the end of an unclosed block is dropped with it
    @Test
    void theTailOfAnUnclosedBlockNeverComesOut() {
        assertThat(all("Hi <think>x </th")).isEqualTo("Hi ");
        assertThat(all("Hi <tool_result>x <")).isEqualTo("Hi ");
    }

    // SPEC RP-2: each held block is decided on its own
    @Test
    void heldBlocksDoNotLeakIntoEachOther() {
        assertThat(all("<tools>a</tools> ok <tools>b</tools>")).isEqualTo(" ok ");
        assertThat(all("x\n{\"a\":1}\n{\"result\":2}\n")).isEqualTo("x\n{\"a\":1}\n{\"result\":2}\n");
    }

    // SPEC RP-2
    @Test
    void aFinishedStreamTakesNoMoreText() {
        IncrementalSanitizer s = new IncrementalSanitizer();
        assertThat(s.push("x"))
                .as("a line's first word waits: it may be a name>args call")
                .isEmpty();
        assertThat(s.finish()).isEqualTo("x");
        assertThatThrownBy(() -> s.push("y"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("finished");
        assertThatThrownBy(s::finish).isInstanceOf(IllegalStateException.class);
    }
}
