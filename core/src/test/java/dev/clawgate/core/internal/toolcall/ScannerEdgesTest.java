package dev.clawgate.core.internal.toolcall;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.internal.sanitize.ReplySanitizer;
import dev.clawgate.core.model.ToolCall;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The edges of the scanner's grammar: near-misses, cut-off forms and empty bodies, each with what shows and what runs.
 */
class ScannerEdgesTest {
    private static final Set<String> TOOLS = Set.of("shell", "file_read");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String shown(String text) {
        return ReplySanitizer.sanitize(text, TOOLS);
    }

    private static List<ToolCall> calls(String text) {
        return ToolCallParser.parse(text, TOOLS, ReasoningTags.DEFAULT).calls();
    }

    private static List<ToolCall> runnable(String text) {
        return calls(text).stream().filter(c -> !c.malformed()).toList();
    }

    // SPEC RP-2: special tokens are protocol; near-misses are text
    @Test
    void specialTokensAreRemovedAndNearMissesStay() {
        assertThat(shown("a<|im_end|>b")).isEqualTo("ab");
        assertThat(shown("a <||> b")).isEqualTo("a <||> b");
        assertThat(shown("a <|x y|> b")).isEqualTo("a <|x y|> b");
        assertThat(shown("a <|" + "x".repeat(70) + "|> b")).isEqualTo("a <|" + "x".repeat(70) + "|> b");
        assertThat(shown("a <|x|y b")).isEqualTo("a <|x|y b");
        assertThat(shown("a <|")).isEqualTo("a <|");
        assertThat(shown("a <|x")).isEqualTo("a <|x");
        assertThat(shown("a<|quote_begin|>x<|quote_end|>b")).isEqualTo("ab");
        assertThat(shown("a<|quote_begin|>x")).isEqualTo("a");
    }

    // SPEC AG-1: a tool-call section that never closes, or holds no call, runs nothing
    @Test
    void brokenSectionsRunNothing() throws Exception {
        assertThat(calls("<|tool_calls_section_begin|><|tool_call_begin|>functions.shell:0<|tool_call_argument"
                        + "_begin|>{}"))
                .singleElement()
                .satisfies(c -> assertThat(c.parseError()).contains("not closed"));
        assertThat(calls("<|tool_calls_section_begin|><|tool_call_begin|>shell<|tool_calls_section_end|>"))
                .singleElement()
                .satisfies(c -> assertThat(c.parseError()).contains("not closed"));
        assertThat(calls("<|tool_calls_section_begin|>nothing<|tool_calls_section_end|>"))
                .singleElement()
                .satisfies(c -> assertThat(c.parseError()).contains("no call"));
        assertThat(runnable("<|tool_calls_section_begin|>{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}<"
                        + "|tool_calls_section_end|>"))
                .extracting(ToolCall::name)
                .containsExactly("shell");
        assertThat(runnable(
                        "<\uFF5Ctool\u2581calls\u2581begin\uFF5C><\uFF5Ctool\u2581call\u2581begin\uFF5C>shell<\uFF5Ct"
                                + "ool\u2581sep\uFF5C>{\"command\":\"ls\"}"
                                + "<\uFF5Ctool\u2581call\u2581end\uFF5C><\uFF5Ctool\u2581call\u2581begin\uFF5C>functi"
                                + "on<\uFF5Ctool\u2581sep\uFF5C>file_read"
                                + "<\uFF5Ctool\u2581call\u2581end\uFF5C><\uFF5Ctool\u2581calls\u2581end\uFF5C>"))
                .extracting(ToolCall::name)
                .containsExactly("shell", "file_read");
        assertThat(runnable("<|tool_call_begin|>functions.shell:0<|tool_call_argument_begin|>{}<|tool_call_end|>"))
                .isEmpty();
    }

    // SPEC AG-1, RP-2: Llama's python_tag and Mistral's prefix, whole, cut or followed by prose
    @Test
    void pythonTagAndMistralPrefixEdges() throws Exception {
        assertThat(shown("x <|python_tag|>print(1)")).isEqualTo("x print(1)");
        assertThat(shown("x <|python_tag|>  ")).isEqualTo("x ");
        assertThat(calls("<|python_tag|>{\"name\":\"shell\",\"parameters\":{"))
                .singleElement()
                .satisfies(c -> assertThat(c.parseError()).contains("cut off"));
        assertThat(shown("x [TOOL_CALLS] hello")).isEqualTo("x  hello");
        assertThat(shown("x [TOOL_CALLS]")).isEqualTo("x ");
        assertThat(shown("x [TOOL_CALLS]sh")).isEqualTo("x sh");
        assertThat(shown("x [TOOL_CALLS]shell and more")).isEqualTo("x shell and more");
        assertThat(calls("[TOOL_CALLS]shell[ARGS]{\"command\":"))
                .singleElement()
                .satisfies(c -> assertThat(c.parseError()).contains("cut off"));
        assertThat(calls("[TOOL_CALLS][{\"name\":\"shell\""))
                .singleElement()
                .satisfies(c -> assertThat(c.malformed()).isTrue());
        assertThat(runnable("[TOOL_CALLS]file_read[ARGS]{\"path\":\"a\"}")
                        .get(0)
                        .arguments())
                .isEqualTo(JSON.readTree("{\"path\":\"a\"}"));
    }

    // SPEC AG-1: names in attributes, wrappers and short forms
    @Test
    void callNamesAndArgumentsInEveryPlaceTheyAreWritten() throws Exception {
        assertThat(runnable("<invoke name='shell'><parameter name='command'>ls</parameter></invoke>")
                        .get(0)
                        .arguments())
                .isEqualTo(JSON.readTree("{\"command\":\"ls\"}"));
        assertThat(runnable("<invoke name=shell>{\"command\":\"ls\"}</invoke>")
                        .get(0)
                        .name())
                .isEqualTo("shell");
        assertThat(runnable("<function=\"shell\"><parameter=\"command\">ls</parameter></function>")
                        .get(0)
                        .arguments())
                .isEqualTo(JSON.readTree("{\"command\":\"ls\"}"));
        assertThat(runnable("<invoke name=\"shell\"><arg_key>command</arg_key><arg_value>ls</arg_value></invoke>")
                        .get(0)
                        .arguments())
                .isEqualTo(JSON.readTree("{\"command\":\"ls\"}"));
        assertThat(runnable("<tool_calls>{\"name\":\"shell\",\"arguments\":{}}</tool_calls>"))
                .extracting(ToolCall::name)
                .containsExactly("shell");
        assertThat(calls("<tool_calls>nothing here</tool_calls>"))
                .singleElement()
                .satisfies(c -> assertThat(c.parseError()).contains("holds no call"));
        assertThat(calls("<tool_call><arg_key>k</arg_key><arg_value>v</arg_value></tool_call>"))
                .singleElement()
                .satisfies(c -> assertThat(c.malformed()).isTrue());
        assertThat(runnable("lookup>{\"q\":1}</invoke>").get(0).arguments()).isEqualTo(JSON.readTree("{\"q\":1}"));
        assertThat(runnable("lookup>plain words</tool_call>").get(0).arguments())
                .isEqualTo(JSON.readTree("{\"input\":\"plain words\"}"));
        assertThat(shown("x>5 and y<3\nok")).isEqualTo("x>5 and y<3\nok");
        assertThat(shown("x>5 and </b>\nok")).isEqualTo("x>5 and </b>\nok");
        assertThat(shown("word>text\nok")).isEqualTo("word>text\nok");
        assertThat(calls("```tool \n{}\n```"))
                .singleElement()
                .satisfies(c -> assertThat(c.malformed()).isTrue());
        // JSON that merely contains "=>" is JSON, not a perl-style block
        assertThat(runnable("<tool_call>{\"name\":\"shell\",\"arguments\":{\"command\":\"a => b\"}}</tool_call>")
                        .get(0)
                        .arguments())
                .isEqualTo(JSON.readTree("{\"command\":\"a => b\"}"));
        // a wrapper around a tag around an invoke: bodies are read through nested scans
        assertThat(runnable("<tool_calls><tool_call><invoke name=\"shell\"><parameter "
                        + "name=\"command\">ls</parameter></invoke></tool_call></tool_calls>"))
                .extracting(ToolCall::name)
                .containsExactly("shell");
    }

    // SPEC AG-1, RP-2: <tools> runs only invocations; anything else in it is a declaration, never run, never shown
    @Test
    void toolsBlocksRunOnlyInvocations() {
        assertThat(runnable(
                        "<tools>{\"type\":\"function\",\"function\":{\"name\":\"shell\",\"arguments\":{}}}</tools>"))
                .extracting(ToolCall::name)
                .containsExactly("shell");
        assertThat(runnable("<tools>{\"name\":\"shell\",\"arguments\":\"{}\"}</tools>"))
                .extracting(ToolCall::name)
                .containsExactly("shell");
        for (String body : List.of(
                "{oops}",
                "[]",
                "[1]",
                "{\"name\":\"shell\",\"arguments\":[]}",
                "{\"name\":5,\"arguments\":{}}",
                "{\"name\":\"shell\",\"description\":\"d\",\"arguments\":{}}")) {
            assertThat(calls("<tools>" + body + "</tools>")).as(body).isEmpty();
            assertThat(shown("a<tools>" + body + "</tools>b")).as(body).isEqualTo("ab");
        }
    }

    // SPEC RP-2: markup-less JSON lines: arrays of calls, mixed arrays, and results only after a call
    @Test
    void jsonLinesAreCallsOnlyWhenEveryElementIsARegisteredCall() {
        assertThat(shown("a\n[{\"name\":\"shell\",\"arguments\":{}},{\"name\":\"file_read\",\"arguments\":{}}]\nb"))
                .isEqualTo("a\nb");
        assertThat(shown("a\n[{\"name\":\"shell\",\"arguments\":{}}, 3]\nb"))
                .isEqualTo("a\n[{\"name\":\"shell\",\"arguments\":{}}, 3]\nb");
        assertThat(shown("a\n{\"name\":\"shell\",\"arguments\":{}} trailing\nb"))
                .isEqualTo("a\n{\"name\":\"shell\",\"arguments\":{}} trailing\nb");
        assertThat(shown("a\n{\"tool_call_id\":\"1\",\"content\":\"x\"} and text\nb"))
                .isEqualTo("a\n and text\nb");
        assertThat(shown("a\n{\"tool_call_id\":\"1\",\"content\":\"x\"}\nb")).isEqualTo("a\nb");
    }

    // SPEC RP-2: the layout rule: leading blank lines go, a run of blank lines becomes one, indentation after a break
    // stays
    @Test
    void layoutIsTidiedTheSameWhateverWasRemoved() {
        assertThat(shown("  \n\nx")).isEqualTo("x");
        assertThat(shown("a\n\n  \n\n  b")).isEqualTo("a\n\n  b");
        assertThat(shown("a\n\n  ")).isEqualTo("a\n\n");
        assertThat(shown("a\n \n\nb")).isEqualTo("a\n \nb");
    }

    // SPEC RP-4: reasoning tag names are checked
    @Test
    void reasoningTagNamesAreChecked() {
        assertThat(ReasoningTags.isValidName("think")).isTrue();
        assertThat(ReasoningTags.isValidName(" Plan.v2 ")).isTrue();
        assertThat(ReasoningTags.isValidName("two words")).isFalse();
        assertThat(ReasoningTags.isValidName("1st")).isFalse();
        assertThat(ReasoningTags.isValidName(null)).isFalse();
        assertThat(new ReasoningTags(null).names()).isEmpty();
        assertThat(ThinkTags.split("<think>x</think>", new ReasoningTags(Set.of()))
                        .visible())
                .isEqualTo("<think>x</think>");
    }

    // SPEC AG-1: tags read at the edges of their size and form
    @Test
    void tagsAreReadOnlyWhenWellFormed() {
        assertThat(Tag.read("<", 0, true)).isEqualTo(Tag.NONE);
        assertThat(Tag.read("<", 0, false)).isNull();
        assertThat(Tag.read("</", 0, false)).isNull();
        assertThat(Tag.read("<1a>", 0, true)).isEqualTo(Tag.NONE);
        assertThat(Tag.read("<ab", 0, false)).isNull();
        assertThat(Tag.read("<ab", 0, true)).isEqualTo(Tag.NONE);
        assertThat(Tag.read("<a\nb>", 0, true)).isEqualTo(Tag.NONE);
        assertThat(Tag.read("<ab<", 0, true)).isEqualTo(Tag.NONE);
        assertThat(Tag.read("<a+b>", 0, true)).isEqualTo(Tag.NONE);
        assertThat(Tag.read("<a" + "b".repeat(300) + ">", 0, true)).isEqualTo(Tag.NONE);
        Tag t = Tag.read("<ns:Tool_Call x=1/>", 0, true);
        assertThat(t.name()).isEqualTo("ns:tool_call");
        assertThat(t.local()).isEqualTo("tool_call");
        assertThat(t.namespaced()).isTrue();
        assertThat(t.selfClosing()).isTrue();
        assertThat(t.attrs()).isEqualTo(" x=1");
        assertThat(t.end()).isEqualTo(19);
    }
}
