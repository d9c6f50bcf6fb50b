package dev.clawgate.core.internal.toolcall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.fixtures.Expected;
import dev.clawgate.core.fixtures.PeerCases;
import dev.clawgate.core.fixtures.PeerCases.PeerCase;
import dev.clawgate.core.model.ToolCall;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Table-driven from the peer-case fixture: prompt-guided tool-call parsing, every expected field checked. */
class ToolCallParserPeerCasesTest {
    /** An opening call tag (any spelling or namespace) ... */
    private static final Pattern CALL_OPEN = Pattern.compile(
            "(?i)<(?:[a-z][\\w-]*:)?(?:tool_call|toolcall|tool-call|invoke|tools|function)(?:[\\s=][^<>]*)?>");

    // SPEC AG-1, SP-3
    @TestFactory
    Stream<DynamicTest> everyPeerParsingCaseYieldsTheExpectedCallsAndText() {
        return Stream.concat(
                        PeerCases.forFunction("parse_tool_calls").stream(),
                        PeerCases.forFunction("parse_perl_style_tool_calls").stream())
                .map(c -> dynamicTest(c.displayName() + " [SPEC AG-1]", () -> check(c)));
    }

    /**
     * The behaviour rule by which a peer case is not followed: SPEC AG-1 (issue 13) runs only a complete, closed call,
     * so a case expecting a call out of a tag that no close tag ever follows contradicts it. Such a case still runs: it
     * must show SPEC's behaviour (no call runs, the call's JSON is not shown), and is then reported as skipped with the
     * reason.
     */
    static boolean expectsACallFromAnUnclosedTag(String input, Expected e) {
        JsonNode calls = e.has("calls") ? e.take("calls") : null;
        JsonNode min = e.has("calls_min") ? e.take("calls_min") : null;
        boolean wantsCalls = (calls != null && !calls.isEmpty()) || (min != null && min.asInt() > 0);
        var m = CALL_OPEN.matcher(input);
        return wantsCalls && m.find() && !input.substring(m.end()).contains("</");
    }

    private static void check(PeerCase c) {
        String input = c.input().asText();
        Expected e = Expected.of(c);
        ParsedReply reply = assertDoesNotThrow(() -> ToolCallParser.parse(input));
        List<ToolCall> runnable =
                reply.calls().stream().filter(call -> !call.malformed()).toList();
        if (expectsACallFromAnUnclosedTag(input, Expected.of(c))) {
            assertThat(runnable)
                    .as("SPEC AG-1: nothing in an unclosed tag runs")
                    .isEmpty();
            assertThat(reply.visibleText()).doesNotContain("\"arguments\"");
            Assumptions.abort(
                    "peer expectation not followed: it runs a call from an unclosed tag, which SPEC AG-1 forbids");
        }
        e.take("must_not_throw"); // assertDoesNotThrow above is that check
        JsonNode calls = e.take("calls");
        if (calls != null) {
            // SPEC AG-1 reports a malformed call back to the model, so the parser returns it with a
            // parseError where the peer dropped it; the fixture lists the calls that will run.
            assertThat(runnable).as("runnable calls of %s", input).hasSize(calls.size());
            for (int i = 0; i < calls.size(); i++) {
                JsonNode want = calls.get(i);
                ToolCall got = runnable.get(i);
                assertThat(got.name()).isEqualTo(want.get("name").asText());
                assertThat(got.arguments()).isEqualTo(want.get("arguments"));
                if (want.has("tool_call_id"))
                    assertThat(got.id()).isEqualTo(want.get("tool_call_id").asText());
            }
        }
        JsonNode min = e.take("calls_min");
        if (min != null)
            assertThat(runnable).as("at least %s runnable calls", min).hasSizeGreaterThanOrEqualTo(min.asInt());
        JsonNode text = e.take("text");
        if (text != null) assertThat(reply.visibleText()).isEqualTo(text.asText());
        JsonNode nonEmpty = e.take("text_non_empty");
        if (nonEmpty != null)
            assertThat(reply.visibleText().isBlank())
                    .as("visible text is blank")
                    .isEqualTo(!nonEmpty.asBoolean());
        JsonNode contains = e.take("text_contains");
        if (contains != null)
            for (JsonNode s : contains) assertThat(reply.visibleText()).contains(s.asText());
        JsonNode notContains = e.take("text_not_contains");
        if (notContains != null)
            for (JsonNode s : notContains) assertThat(reply.visibleText()).doesNotContain(s.asText());
        e.assertAllChecked();
    }
}
