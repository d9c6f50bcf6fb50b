package dev.clawgate.core.internal.toolcall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.internal.sanitize.ReplySanitizer;
import dev.clawgate.core.model.ToolCall;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One sample per dialect class of the scanner's grammar: the call it holds, and nothing of it shown. */
class DialectsTest {
    private static final Set<String> TOOLS = Set.of("shell", "file_read");
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> dialects() {
        return Stream.of(
                arguments(
                        "Hermes/Qwen tag",
                        "<tool_call>\n{\"name\": \"shell\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>"),
                arguments(
                        "tag spellings",
                        "<toolcall>{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}</toolcall>"),
                arguments(
                        "invoke with parameters",
                        "<invoke name=\"shell\"><parameter name=\"command\">ls</parameter></invoke>"),
                arguments(
                        "MiniMax namespace",
                        "<minimax:tool_call>\n<invoke name=\"shell\">\n<parameter "
                                + "name=\"command\">ls</parameter>\n</invoke>\n</minimax:tool_call>"),
                arguments(
                        "Qwen3-Coder function tag",
                        "<tool_call>\n<function=shell>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_ca"
                                + "ll>"),
                arguments(
                        "tool_calls wrapper",
                        "<tool_calls>[{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}]</tool_calls>"),
                arguments(
                        "GLM arg pairs",
                        "<tool_call>shell\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>"),
                arguments(
                        "bracketed block",
                        "[TOOL_CALL]{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}[/TOOL_CALL]"),
                arguments("bare block", "TOOL_CALL\n{tool => \"shell\", args => { --command \"ls\" }}\n/TOOL_CALL"),
                arguments("tool fence", "```tool_call\n{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}\n```"),
                arguments("named tool fence", "```tool shell\n{\"command\":\"ls\"}\n```"),
                arguments(
                        "fence closed by a close tag",
                        "```tool_call\n{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}\n</tool_call>"),
                arguments(
                        "OpenAI envelope",
                        "{\"tool_calls\":[{\"type\":\"function\",\"function\":{\"name\":\"shell\",\"arguments\":\"{\\"
                                + "\"command\\\":\\\"ls\\\"}\"}}]}"),
                arguments(
                        "toolcalls envelope",
                        "{\"toolcalls\":[{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}]}"),
                arguments(
                        "function_call envelope",
                        "{\"function_call\":{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}}"),
                arguments("Mistral", "[TOOL_CALLS][{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}]"),
                arguments("Mistral v11", "[TOOL_CALLS]shell[ARGS]{\"command\":\"ls\"}"),
                arguments("Llama python_tag", "<|python_tag|>{\"name\":\"shell\",\"parameters\":{\"command\":\"ls\"}}"),
                arguments(
                        "DeepSeek",
                        "<\uFF5Ctool\u2581calls\u2581begin\uFF5C><\uFF5Ctool\u2581call\u2581begin\uFF5C>function"
                                + "<\uFF5Ctool\u2581sep\uFF5C>shell\n```json\n{\"command\":\"ls\"}\n```"
                                + "<\uFF5Ctool\u2581call\u2581end\uFF5C><\uFF5Ctool\u2581calls\u2581end\uFF5C>"),
                arguments(
                        "Kimi",
                        "<|tool_calls_section_begin|><|tool_call_begin|>functions.shell:0<|tool_call_argument_begin|>"
                                + "{\"command\":\"ls\"}<|tool_call_end|><|tool_calls_section_end|>"),
                arguments("name>args</invoke>", "shell>ls</invoke>"));
    }

    // SPEC AG-1, RP-2: each dialect holds one call to shell with command ls; the user sees only the prose around it
    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void eachDialectIsOneCallAndNoneOfItIsShown(String dialect, String call) throws Exception {
        String reply = "Before.\n" + call + "\nAfter.";
        ParsedReply parsed = ToolCallParser.parse(reply, TOOLS, ReasoningTags.DEFAULT);
        assertThat(parsed.calls()).as(dialect).singleElement().satisfies(c -> {
            assertThat(c.malformed()).as("%s: %s", dialect, c.parseError()).isFalse();
            assertThat(c.name()).isEqualTo("shell");
            assertThat(c.arguments()).isEqualTo(JSON.readTree("{\"command\":\"ls\"}"));
        });
        assertThat(parsed.visibleText())
                .as(dialect)
                .contains("Before.")
                .contains("After.")
                .doesNotContain("ls");
        assertThat(ReplySanitizer.sanitize(reply, TOOLS)
                        .lines()
                        .filter(l -> !l.isBlank())
                        .toList())
                .as(dialect)
                .containsExactly("Before.", "After.");
    }

    // SPEC RP-2, RP-4: streamed in two pieces cut anywhere, or one character at a time, the reply is exactly the whole
    // one
    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void everyCuttingStreamsAsTheWholeReply(String dialect, String call) {
        for (String reply : List.of(
                "Before.\n" + call + "\nAfter.",
                call,
                "<think>plan</think>" + call + " x",
                "Hi " + call.substring(0, call.length() / 2))) {
            String whole = ReplySanitizer.sanitize(reply, TOOLS);
            for (int i = 0; i <= reply.length(); i++) {
                var s = new dev.clawgate.core.internal.sanitize.IncrementalSanitizer(TOOLS);
                String out = s.push(reply.substring(0, i)) + s.push(reply.substring(i)) + s.finish();
                assertThat(out).as("%s cut at %d of %s", dialect, i, reply).isEqualTo(whole);
            }
            var s = new dev.clawgate.core.internal.sanitize.IncrementalSanitizer(TOOLS);
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < reply.length(); i++) out.append(s.push(reply.substring(i, i + 1)));
            assertThat(out.append(s.finish()).toString())
                    .as("%s char by char", dialect)
                    .isEqualTo(whole);
            StringBuilder again = new StringBuilder();
            OutputScanner.scanAll(reply, ReasoningTags.DEFAULT, TOOLS).forEach(seg -> again.append(seg.source()));
            assertThat(again.toString()).isEqualTo(reply);
        }
    }

    // SPEC AG-1 (issue 13): cut off before its close, no dialect runs, and nothing after the open shows
    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void noDialectRunsWhenItsCloseNeverComes(String dialect, String call) {
        String cut = "Before.\n" + call.substring(0, call.length() * 2 / 3);
        List<ToolCall> runnable = ToolCallParser.parse(cut, TOOLS, ReasoningTags.DEFAULT).calls().stream()
                .filter(c -> !c.malformed())
                .toList();
        assertThat(runnable).as("%s cut to %s", dialect, cut).isEmpty();
        assertThat(ReplySanitizer.sanitize(cut, TOOLS))
                .as(dialect)
                .doesNotContain("command")
                .doesNotContain("\"ls");
    }
}
