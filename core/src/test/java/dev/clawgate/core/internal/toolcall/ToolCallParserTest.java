package dev.clawgate.core.internal.toolcall;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.model.ToolCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Prompt-guided tool calls beyond the peer cases: every form, ids, and how broken calls are reported. */
class ToolCallParserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    private static ToolCall only(String text) {
        ParsedReply r = ToolCallParser.parse(text);
        assertThat(r.calls()).hasSize(1);
        return r.calls().get(0);
    }

    // SPEC AG-1: all four spellings
    @ParameterizedTest
    @ValueSource(strings = {"tool_call", "toolcall", "tool-call", "invoke", "TOOL_CALL"})
    void eachTagSpellingWithJsonInsideIsOneCall(String tag) throws Exception {
        ParsedReply r = ToolCallParser.parse(
                "Sure.\n<" + tag + ">{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}</" + tag + ">");
        assertThat(r.calls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("shell");
            assertThat(c.arguments()).isEqualTo(json("{\"command\":\"ls\"}"));
            assertThat(c.malformed()).isFalse();
            assertThat(c.id()).isEqualTo("call_1");
        });
        assertThat(r.visibleText()).isEqualTo("Sure.");
        assertThat(r.hasCalls()).isTrue();
    }

    // SPEC AG-1: a call whose tool name is blank names nothing to run, whatever its form (found by the fuzzer)
    @ParameterizedTest
    @ValueSource(
            strings = {
                "<tool_call>{\"name\":\" \",\"arguments\":{}}</tool_call>",
                "<tool_call>{\"name\":\"\",\"arguments\":{\"a\":1}}</tool_call>",
                "TOOL_CALL\n{tool => \" \", args => { --k \"v\" }}\n/TOOL_CALL",
                "[TOOL_CALL]{tool => \"\t\", args => { --k \"v\" }}[/TOOL_CALL]"
            })
    void aCallWithABlankToolNameIsMalformed(String text) {
        assertThat(ToolCallParser.parse(text).calls())
                .allSatisfy(c -> assertThat(c.malformed()).isTrue());
    }

    // SPEC AG-1: several per reply, ids in order of appearance, across forms
    @Test
    void callsInDifferentFormsKeepTheirOrderAndGetSequentialIds() {
        String text = "```tool "
                + "file_read\n{\"path\":\"a\"}\n```\nthen\n<tool_call>{\"name\":\"shell\",\"arguments\":{}}</"
                + "tool_call>\n"
                + "TOOL_CALL\n{tool => \"web_fetch\", args => { --url \"https://x\" }}\n/TOOL_CALL\nend";
        ParsedReply r = ToolCallParser.parse(text);
        assertThat(r.calls()).extracting(ToolCall::name).containsExactly("file_read", "shell", "web_fetch");
        assertThat(r.calls()).extracting(ToolCall::id).containsExactly("call_1", "call_2", "call_3");
        assertThat(r.visibleText()).isEqualTo("then\n\nend");
    }

    // SPEC SP-3: arguments or parameters, object or string holding JSON
    @Test
    void argumentsMayBeParametersOrAStringHoldingJson() throws Exception {
        assertThat(only("<tool_call>{\"name\":\"a\",\"parameters\":{\"x\":1}}</tool_call>")
                        .arguments())
                .isEqualTo(json("{\"x\":1}"));
        assertThat(only("<tool_call>{\"name\":\"a\",\"arguments\":\"{\\\"x\\\":2}\"}</tool_call>")
                        .arguments())
                .isEqualTo(json("{\"x\":2}"));
        assertThat(only("<tool_call>{\"name\":\"a\",\"arguments\":\"  \"}</tool_call>")
                        .arguments())
                .isEqualTo(json("{}"));
        assertThat(only("<tool_call>{\"name\":\"a\",\"arguments\":null}</tool_call>")
                        .arguments())
                .isEqualTo(json("{}"));
        assertThat(only("<tool_call>{\"tool\":\"a\",\"args\":{\"y\":1}}</tool_call>")
                        .arguments())
                .isEqualTo(json("{\"y\":1}"));
        assertThat(only("<tool_call>{\"tool_name\":\" b \",\"input\":{\"z\":1}}</tool_call>")
                        .name())
                .isEqualTo("b");
        assertThat(only("<tool_call>{\"function\":{\"name\":\"c\",\"parameters\":{\"q\":1}}}</tool_call>")
                        .arguments())
                .isEqualTo(json("{\"q\":1}"));
    }

    // SPEC AG-1: malformed calls are reported back, named where possible
    @Test
    void argumentsThatAreNotJsonAreReportedWithTheToolName() {
        ToolCall c = only("<tool_call>{\"name\":\"shell\",\"arguments\":\"{not json\"}</tool_call>");
        assertThat(c.malformed()).isTrue();
        assertThat(c.name()).isEqualTo("shell");
        assertThat(c.parseError())
                .startsWith("the arguments of 'shell' are not valid JSON")
                .doesNotContain("Source");
    }

    // SPEC AG-1
    @Test
    void argumentsThatAreNotAnObjectAreReported() {
        assertThat(only("<tool_call>{\"name\":\"shell\",\"arguments\":[1]}</tool_call>")
                        .parseError())
                .contains("array");
        assertThat(only("<tool_call>{\"name\":\"shell\",\"arguments\":\"[1]\"}</tool_call>")
                        .parseError())
                .contains("array");
        assertThat(only("<tool_call>{\"name\":\"shell\",\"arguments\":5}</tool_call>")
                        .parseError())
                .contains("number");
    }

    // SPEC AG-1
    @Test
    void brokenJsonIsReportedWithTheNameItStillShows() {
        ToolCall c = only("<tool_call>{\"name\": \"file_write\", \"arguments\": {\"path\": }</tool_call>");
        assertThat(c.name()).isEqualTo("file_write");
        assertThat(c.parseError())
                .startsWith("the tool call is not valid JSON: ")
                .doesNotContain("\n");
        assertThat(only("<tool_call>{oops</tool_call>").name()).isEqualTo("unknown");
    }

    // SPEC AG-1
    @Test
    void aBodyThatIsNoCallFormIsReportedAsAnUnknownCall() {
        ToolCall c = only("<tool_call>please run ls for me</tool_call>");
        assertThat(c.name()).isEqualTo("unknown");
        assertThat(c.parseError())
                .contains("neither JSON nor a known call form")
                .contains("please run ls");
        assertThat(only("<tool_call>  </tool_call>").parseError()).isEqualTo("the tool call is empty");
        assertThat(only("<tool_call>{\"arguments\":{}}</tool_call>").parseError())
                .isEqualTo("the tool call has no name");
        assertThat(only("<tool_call>{\"name\":\"  \"}</tool_call>").parseError())
                .isEqualTo("the tool call has no name");
    }

    // SPEC AG-1
    @Test
    void aJsonArrayIsOneCallPerElement() {
        ParsedReply r =
                ToolCallParser.parse("<tool_call>[{\"name\":\"a\"},{\"name\":\"b\",\"arguments\":{}}, 3]</tool_call>");
        assertThat(r.calls()).extracting(ToolCall::name).containsExactly("a", "b", "unknown");
        assertThat(r.calls().get(2).parseError()).contains("number");
        assertThat(only("<tool_call>[]</tool_call>").parseError()).contains("array");
        assertThat(only("<tool_call>\"shell\"</tool_call>").malformed()).isTrue();
    }

    // SPEC AG-1: ids the model gave are kept; made-up ids never collide with them
    @Test
    void givenIdsAreKeptAndMadeUpIdsAvoidThem() {
        ParsedReply r = ToolCallParser.parse(
                "{\"tool_calls\":[{\"id\":\"call_1\",\"function\":{\"name\":\"a\",\"arguments\":\"{}\"}},"
                        + "{\"function\":{\"name\":\"b\",\"arguments\":{}}},{\"id\":7,\"name\":\"c\",\"arguments\":{}"
                        + "}]}");
        assertThat(r.calls()).extracting(ToolCall::id).containsExactly("call_1", "call_2", "call_3");
        assertThat(r.visibleText()).isEmpty();
    }

    // SPEC AG-1: an OpenAI-shaped reply is only recognised as a whole
    @Test
    void openAiShapeNeedsCallsAndTheWholeReply() {
        assertThat(ToolCallParser.parse("{\"content\":\"hi\",\"tool_calls\":[]}")
                        .calls())
                .isEmpty();
        assertThat(ToolCallParser.parse("{\"content\":\"hi\",\"tool_calls\":{}}")
                        .calls())
                .isEmpty();
        // SPEC AG-1, RP-2: a call envelope cut off before it closes is protocol: reported, never run, never shown
        ParsedReply broken = ToolCallParser.parse("{\"tool_calls\": [ oops");
        assertThat(broken.calls())
                .singleElement()
                .satisfies(c -> assertThat(c.parseError()).contains("cut off"));
        assertThat(broken.visibleText()).isEmpty();
        ParsedReply notAnEnvelope = ToolCallParser.parse("{\"items\": [ oops");
        assertThat(notAnEnvelope.calls()).isEmpty();
        assertThat(notAnEnvelope.visibleText()).isEqualTo("{\"items\": [ oops");
        ParsedReply noContent =
                ToolCallParser.parse("{\"content\":null,\"tool_calls\":[{\"name\":\"a\",\"arguments\":{}}]}");
        assertThat(noContent.visibleText()).isEmpty();
        assertThat(noContent.calls()).extracting(ToolCall::name).containsExactly("a");
    }

    // SPEC AG-1 (issue 13): only a closed call runs; an unclosed tag is protocol to the end, reported, never run
    @Test
    void anUnclosedTagNeverRunsAndSwallowsTheRestAsProtocol() {
        ParsedReply r = ToolCallParser.parse("Do it <tool_call>\n{\"name\":\"a\",\"arguments\":{}}\nDone");
        assertThat(r.calls()).singleElement().satisfies(c -> {
            assertThat(c.malformed()).isTrue();
            assertThat(c.parseError()).contains("not closed");
        });
        assertThat(r.visibleText()).isEqualTo("Do it");
        ParsedReply prose = ToolCallParser.parse("The <tool_call> tag is what I emit.");
        assertThat(prose.calls()).allSatisfy(c -> assertThat(c.malformed()).isTrue());
        assertThat(prose.visibleText()).isEqualTo("The");
    }

    // SPEC AG-1: JSON closed by any close tag right after it is closed (a cross-alias or mismatched close tag)
    @Test
    void jsonClosedByAnotherCloseTagIsACallAndTheTextAfterItStays() {
        ParsedReply r = ToolCallParser.parse(
                "Do it <tool_call>\n```json\n{\"name\":\"a\",\"arguments\":{}}\n```\n</tool_call> Done");
        assertThat(r.calls()).extracting(ToolCall::name).containsExactly("a");
        assertThat(r.visibleText()).isEqualTo("Do it  Done");
        ParsedReply cross = ToolCallParser.parse("<tool_call>{\"name\":\"a\",\"arguments\":{}}</arg_value> after");
        assertThat(cross.calls()).extracting(ToolCall::name).containsExactly("a");
        assertThat(cross.visibleText()).isEqualTo("after");
    }

    // SPEC AG-1
    @Test
    void aSecondOpenTagInsideAnUnclosedOneRunsNothingBeforeItsClose() {
        ParsedReply mixed = ToolCallParser.parse(
                "<tool_call>{\"name\":\"a\"}\n<tool_call>{\"name\":\"b\",\"arguments\":{}}</tool_call>");
        assertThat(mixed.calls().stream().filter(c -> !c.malformed()))
                .extracting(ToolCall::name)
                .containsExactly("b");
        ParsedReply twoOpen = ToolCallParser.parse(
                "<tool_call>{\"name\":\"a\",\"arguments\":{}}\n<tool_call>{\"name\":\"b\",\"arguments\":{}}");
        assertThat(twoOpen.calls()).allSatisfy(c -> assertThat(c.malformed()).isTrue());
    }

    // SPEC AG-1: fences
    @Test
    void toolFencesAreCallsAndCanBeEmptyOrUnclosed() throws Exception {
        assertThat(only("```tool ping\n\n```").arguments()).isEqualTo(json("{}"));
        assertThat(only("```tool shell\nnot json\n```").parseError()).contains("are not valid JSON");
        ToolCall open = only("x\n```tool_call\n{\"name\":\"a\",\"arguments\":{}}");
        assertThat(open.malformed()).as("an unclosed fence never runs").isTrue();
        assertThat(ToolCallParser.parse("```toolbox\ncode\n```").calls()).isEmpty();
        assertThat(ToolCallParser.parse("```python\nprint(1)\n```").calls()).isEmpty();
    }

    // SPEC AG-1: perl-style blocks
    @Test
    void perlStyleBlocksReadOptionsAndPairs() throws Exception {
        ToolCall c = only("TOOL_CALL\n{tool => 'file_write', args => { path => \"a.txt\", --content 'x y', --mode w "
                + "}}\n/TOOL_CALL");
        assertThat(c.name()).isEqualTo("file_write");
        assertThat(c.arguments()).isEqualTo(json("{\"path\":\"a.txt\",\"content\":\"x y\",\"mode\":\"w\"}"));
        ToolCall bracketed =
                only("[TOOL_CALL]\n{tool => \"shell\", args => { --command \"echo \\\"a\\tb\\\"\" }}\n[/TOOL_CALL]");
        assertThat(bracketed.arguments()).isEqualTo(json("{\"command\":\"echo \\\"a\\tb\\\"\"}"));
        assertThat(only("TOOL_CALL\n{tool => \"shell\"}").malformed())
                .as("unclosed: never run")
                .isTrue();
        assertThat(only("TOOL_CALL\n{args => {}}\n/TOOL_CALL").parseError()).contains("names no tool");
        assertThat(only("TOOL_CALL\n{tool => \"ping\"}\n/TOOL_CALL").arguments())
                .isEqualTo(json("{}"));
    }

    // SPEC AG-1, RP-2: <tools> runs only when it holds invocations; a declaration is protocol, never run or shown
    @Test
    void aToolsTagThatDeclaresToolsIsProtocolNotACall() {
        ParsedReply r = ToolCallParser.parse("<tools>shell, file_read</tools>");
        assertThat(r.calls()).isEmpty();
        assertThat(r.visibleText()).isEmpty();
        ParsedReply schema = ToolCallParser.parse(
                "<tools>[{\"name\":\"shell\",\"description\":\"run\",\"parameters\":{\"type\":\"object\"}}]</tools>ok");
        assertThat(schema.calls()).isEmpty();
        assertThat(schema.visibleText()).isEqualTo("ok");
        ParsedReply noArgs = ToolCallParser.parse("<tools>{\"name\":\"shell\"}</tools>");
        assertThat(noArgs.calls()).isEmpty();
    }

    // SPEC AG-1, RP-4: reasoning never shows
    @Test
    void reasoningIsNotPartOfTheVisibleText() {
        ParsedReply r = ToolCallParser.parse("A<think>plan</think>B\n\n\n\nC");
        assertThat(r.visibleText()).isEqualTo("AB\n\nC");
        assertThat(r.calls()).isEmpty();
        assertThat(ToolCallParser.parse(null).visibleText()).isEmpty();
        assertThat(ToolCallParser.parse("  ").hasCalls()).isFalse();
        assertThat(new ParsedReply(null, null).calls()).isEmpty();
    }

    // SPEC AG-1: a call's JSON ends where its braces balance, strings and escapes included
    @Test
    void aCallsJsonEndsWhereItsBracesBalance() throws Exception {
        ParsedReply r = ToolCallParser.parse(
                "<tool_call>{\"name\":\"a\",\"arguments\":{\"q\":\"say \\\"}\\\" [x\"}}</tool_call> after");
        assertThat(r.calls())
                .singleElement()
                .satisfies(c -> assertThat(c.arguments()).isEqualTo(json("{\"q\":\"say \\\"}\\\" [x\"}")));
        assertThat(r.visibleText()).isEqualTo("after");
        assertThat(JsonSpan.end("[1,[2]] x", 0, 9)).isEqualTo(7);
        assertThat(JsonSpan.end("{\"a\":\"}", 0, 7)).isEqualTo(-1);
    }

    // SPEC AG-1: structured parameter values and OpenAI envelopes without calls
    @Test
    void parameterArraysStayStructuredAndEmptyCallListsAreReported() throws Exception {
        assertThat(only("<invoke name=\"x\"><parameter name=\"ids\">[1, 2]</parameter></invoke>")
                        .arguments())
                .isEqualTo(json("{\"ids\":[1,2]}"));
        assertThat(only("<tool_call>{\"tool_calls\":[]}</tool_call>").parseError())
                .isEqualTo("the tool call has no name");
        assertThat(only("<tool_call>{\"tool_calls\":\"x\"}</tool_call>").parseError())
                .isEqualTo("the tool call has no name");
    }

    // SPEC AG-1: error texts for the model stay short
    @Test
    void errorTextsAreShortAndFreeOfParserNoise() {
        assertThat(CallBodyReader.excerpt("x".repeat(80))).isEqualTo("x".repeat(80));
        assertThat(CallBodyReader.excerpt(" a\n\n b ")).isEqualTo("a b");
        assertThat(CallBodyReader.excerpt("y".repeat(81))).isEqualTo("y".repeat(80) + "...");
        assertThat(CallBodyReader.problem(new com.fasterxml.jackson.core.JsonParseException(
                        null, "bad token (start marker at here)\nmore")))
                .isEqualTo("bad token");
        assertThat(CallBodyReader.problem(
                        new com.fasterxml.jackson.core.JsonParseException(null, "line one\nline two")))
                .isEqualTo("line one");
        assertThat(CallBodyReader.problem(new com.fasterxml.jackson.core.JsonParseException(null, "z".repeat(120))))
                .hasSize(120);
        assertThat(CallBodyReader.problem(new com.fasterxml.jackson.core.JsonParseException(null, "z".repeat(121))))
                .isEqualTo("z".repeat(120) + "...");
    }

    // SPEC RP-2: the sanitiser's view of call syntax
    @Test
    void strippingCallSyntaxKeepsOtherTextByteForByte() {
        String plain = "  keep   this\n\n\n as is  ";
        assertThat(ToolCallParser.stripCallSyntax(plain)).isSameAs(plain);
        assertThat(ToolCallParser.stripCallSyntax(null)).isEmpty();
        assertThat(ToolCallParser.stripCallSyntax("a </tool_call> b </minimax:tool_call>"))
                .isEqualTo("a  b");
        assertThat(ToolCallParser.stripCallSyntax("a\n<tool_call> and then prose"))
                .isEqualTo("a");
        assertThat(ToolCallParser.stripCallSyntax("x <toolcall/> y")).isEqualTo("x  y");
        assertThat(ToolCallParser.stripCallSyntax("a\n<tool_call>{\"name\":\"x\"}</tool_call>\n\n\nb"))
                .isEqualTo("a\n\nb");
        assertThat(ToolCallParser.stripCallSyntax("<tools>a list</tools>")).isEmpty();
    }
}
