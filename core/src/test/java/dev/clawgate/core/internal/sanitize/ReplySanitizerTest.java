package dev.clawgate.core.internal.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reply sanitising beyond the peer cases: each step's edges, and what must stay untouched. */
class ReplySanitizerTest {
    private static final Set<String> TOOLS = Set.of("shell", "schedule");

    // SPEC RP-2: ordinary replies pass byte for byte
    @Test
    void aReplyWithoutProtocolTextIsReturnedAsItIs() {
        String text = "  Indented.\n\nOne blank line, trailing space ";
        assertThat(ReplySanitizer.sanitize(text, TOOLS)).isEqualTo(text);
        // SPEC RP-2: the layout rule is the same with or without protocol: leading blank lines and
        // runs of blank lines go, the first line's indentation and the end stay as written
        assertThat(ReplySanitizer.sanitize("\n\n  Indented.\n\n\n\nNext\n", TOOLS))
                .isEqualTo("Indented.\n\nNext\n");
        assertThat(ReplySanitizer.sanitize(null, TOOLS)).isEmpty();
        assertThat(ReplySanitizer.sanitize("", TOOLS)).isEmpty();
        assertThat(ReplySanitizer.sanitize("{\"name\":\"shell\",\"arguments\":{}}", null))
                .isEqualTo("{\"name\":\"shell\",\"arguments\":{}}");
    }

    // SPEC RP-2: every kind of protocol text in one reply
    @Test
    void everyKindOfProtocolTextIsRemovedFromOneReply() {
        String text = "[Used tools: shell]\n<think>plan</think>Let me "
                + "look.\n<tool_call>{\"name\":\"shell\",\"arguments\":{}}</tool_call>\n"
                + "[Tool results]\n<tool_result name=\"shell\">secret "
                + "output</tool_result>\n{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}\n"
                + "{\"output\":\"x\"}\n\n\nThe directory has 3 files.";
        assertThat(ReplySanitizer.sanitize(text, TOOLS)).isEqualTo("The directory has 3 files.");
    }

    // SPEC RP-2
    @Test
    void toolJsonCountsOnlyWhenEveryToolItNamesIsRegistered() {
        String mixed = "[{\"name\":\"shell\",\"arguments\":{}},{\"name\":\"other\",\"arguments\":{}}]";
        assertThat(ReplySanitizer.stripIsolatedToolJson(mixed, TOOLS)).isSameAs(mixed);
        String both = "[{\"name\":\"shell\",\"arguments\":{}},{\"function\":{\"name\":\"schedule\"}}]";
        assertThat(ReplySanitizer.stripIsolatedToolJson("a\n" + both + "\nb", TOOLS))
                .isEqualTo("a\nb");
        String notACall = "{\"name\":\"shell\"}";
        assertThat(ReplySanitizer.stripIsolatedToolJson(notACall, TOOLS)).isSameAs(notACall);
        String typed = "{\"type\":\"function_call\",\"name\":\"shell\"}";
        assertThat(ReplySanitizer.stripIsolatedToolJson("x\n" + typed, TOOLS)).isEqualTo("x");
        assertThat(ReplySanitizer.stripIsolatedToolJson("x\n[1, 2]\n[]", TOOLS)).isEqualTo("x\n[1, 2]\n[]");
        assertThat(ReplySanitizer.stripIsolatedToolJson(null, TOOLS)).isEmpty();
        assertThat(ReplySanitizer.stripIsolatedToolJson("{\"tool_call_id\":\"1\"}", null))
                .isEmpty();
    }

    // SPEC RP-2: a result object is protocol only after a call in the same reply
    @Test
    void resultObjectsAreRemovedOnlyAfterACall() {
        String alone = "{\"result\":42}\n{\"error\":\"x\"}";
        assertThat(ReplySanitizer.stripIsolatedToolJson(alone, TOOLS)).isSameAs(alone);
        String after =
                "{\"name\":\"shell\",\"parameters\":{}}\n{\"error\":\"denied\"}\n{\"status\":\"ok\"}\n{\"output\":1}"
                        + "\nfine";
        assertThat(ReplySanitizer.stripIsolatedToolJson(after, TOOLS)).isEqualTo("{\"status\":\"ok\"}\nfine");
    }

    // SPEC RP-2: JSON spread over lines or fenced
    @Test
    void multiLineAndFencedToolJsonIsRemovedWhenItNamesARegisteredTool() {
        String pretty = "{\n  \"name\": \"shell\",\n  \"arguments\": {\"command\": \"ls\"}\n}";
        assertThat(ReplySanitizer.stripIsolatedToolJson(pretty, TOOLS)).isEmpty();
        String fenced = "Result:\n```json\n{\"name\":\"shell\",\"arguments\":{}}\n```\n{\"result\":1}\nok";
        assertThat(ReplySanitizer.stripIsolatedToolJson(fenced, TOOLS)).isEqualTo("Result:\nok");
        String user = "```json\n{\"name\":\"profile\",\"arguments\":{}}\n```";
        assertThat(ReplySanitizer.stripIsolatedToolJson(user, TOOLS)).isSameAs(user);
        String unclosed = "```json\n{\"name\":\"shell\",\"arguments\":{}}";
        assertThat(ReplySanitizer.stripIsolatedToolJson(unclosed, TOOLS)).isEqualTo("```json");
    }

    // SPEC RP-2: narration, leading lines only, never everything
    @Test
    void narrationIsDroppedOnlyFromTheStart() {
        assertThat(ReplySanitizer.stripNarration("\n  I\u2019ll fetch that.\n\nHOLD ON a sec\nAnswer\nI'll add more"))
                .isEqualTo("Answer\nI'll add more");
        String userFacing = "Let me know if that helps.\nBye";
        assertThat(ReplySanitizer.stripNarration(userFacing)).isSameAs(userFacing);
        String onlyNarration = "Let me check.\n\nOne moment...";
        assertThat(ReplySanitizer.stripNarration(onlyNarration)).isSameAs(onlyNarration);
        assertThat(ReplySanitizer.stripNarration("Letting you know")).isEqualTo("Letting you know");
        assertThat(ReplySanitizer.stripNarration(null)).isEmpty();
        assertThat(ReplySanitizer.stripNarration("\n\nAnswer")).isEqualTo("\n\nAnswer");
    }

    // SPEC RP-2, RP-3
    @Test
    void onlyALeadingToolSummaryIsRemoved() {
        assertThat(ReplySanitizer.stripToolSummaryPrefix("  [used TOOLS: a, b]   Done"))
                .isEqualTo("Done");
        String middle = "Done [Used tools: a]";
        assertThat(ReplySanitizer.stripToolSummaryPrefix(middle)).isSameAs(middle);
        String brokenAcrossLines = "[Used tools: a\n] x";
        assertThat(ReplySanitizer.stripToolSummaryPrefix(brokenAcrossLines)).isSameAs(brokenAcrossLines);
        assertThat(ReplySanitizer.stripToolSummaryPrefix(null)).isEmpty();
    }

    // SPEC RP-2
    @Test
    void toolResultsAreRemovedEvenWhenUnclosedOrStray() {
        assertThat(ReplySanitizer.stripToolResultBlocks("a\n<tool_result name=\"x\">b"))
                .isEqualTo("a");
        assertThat(ReplySanitizer.stripToolResultBlocks("a </tool_result> b")).isEqualTo("a  b");
        assertThat(ReplySanitizer.stripToolResultBlocks("a\n  [tool results]  \nb"))
                .isEqualTo("a\nb");
        String near = "<tool_results>x</tool_results> [Tool results] inline";
        assertThat(ReplySanitizer.stripToolResultBlocks(near)).isSameAs(near);
        assertThat(ReplySanitizer.stripToolResultBlocks(null)).isEmpty();
    }

    // SPEC RP-2
    @Test
    void protocolMarkupStepsCompose() {
        assertThat(ReplySanitizer.sanitize(
                        "<think>x</think>a<tool_call>{}</tool_call>b<tool_result>c</tool_result>d", java.util.Set.of()))
                .isEqualTo("abd");
        assertThat(ReplySanitizer.stripCallSyntax("a ```tool_call inline stays"))
                .isEqualTo("a ```tool_call inline stays");
        assertThat(ReplySanitizer.stripThink("<think>x")).isEmpty();
    }
}
