package dev.clawgate.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.fixtures.PeerCases;
import dev.clawgate.core.fixtures.PeerCases.PeerCase;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Table-driven from shared/fixtures/peer-cases.json: reply sanitising, whole and step by step. */
class ReplySanitizerPeerCasesTest {

    /**
     * The peer keeps a reply that opens with a {@code <tool_call>} block when prose calls it an
     * example. SPEC RP-2 removes tool-call tag blocks in all four spellings, with no such
     * exception ("the user never sees protocol text"), so SPEC wins and the case is skipped.
     */
    private static final Set<String> CONTRADICTS_SPEC = Set.of("sanitize_channel_response_preserves_tool_call_tag_example");

    // SPEC RP-2
    @TestFactory
    Stream<DynamicTest> wholeReplySanitisingMatchesEveryPeerCase() {
        return PeerCases.forFunction("sanitize_channel_response").stream()
                .filter(c -> CONTRADICTS_SPEC.stream().noneMatch(c.source()::endsWith))
                .map(c -> dynamicTest(c.displayName() + " [SPEC RP-2]", () -> {
                    String text = c.input().get("text").asText();
                    check(c, ReplySanitizer.sanitize(text, names(c.input().get("registered_tools"))));
                }));
    }

    // SPEC RP-2: the skipped case still shows the SPEC behaviour
    @TestFactory
    Stream<DynamicTest> aToolCallBlockCalledAnExampleIsStillRemovedBecauseSpecWins() {
        return PeerCases.forFunction("sanitize_channel_response").stream()
                .filter(c -> CONTRADICTS_SPEC.stream().anyMatch(c.source()::endsWith))
                .map(c -> dynamicTest(c.displayName() + " [SPEC RP-2 over the peer]", () -> {
                    String out = ReplySanitizer.sanitize(c.input().get("text").asText(), Set.of());
                    assertThat(out).doesNotContain("<tool_call>").doesNotContain("\"arguments\"").contains("example");
                }));
    }

    // SPEC RP-2: streamed draft text, through the batch sanitiser and the incremental one
    @TestFactory
    Stream<DynamicTest> draftTextSanitisesTheSameWholeOrStreamed() {
        return PeerCases.forFunction("sanitize_streaming_draft_text").stream()
                .flatMap(c -> Stream.of(
                        dynamicTest(c.displayName() + " batch [SPEC RP-2]",
                                () -> check(c, ReplySanitizer.sanitize(c.input().asText(), Set.of()))),
                        dynamicTest(c.displayName() + " incremental [SPEC RP-2]", () -> {
                            IncrementalSanitizer s = new IncrementalSanitizer();
                            String text = c.input().asText();
                            StringBuilder out = new StringBuilder();
                            for (int i = 0; i < text.length(); i++) out.append(s.push(text.substring(i, i + 1)));
                            out.append(s.finish());
                            check(c, out.toString());
                        })));
    }

    // SPEC RP-2: each step on its own
    @TestFactory
    Stream<DynamicTest> eachSanitisingStepMatchesItsPeerCases() {
        return Stream.of(
                        step("strip_isolated_tool_json_artifacts",
                                c -> ReplySanitizer.stripIsolatedToolJson(c.input().get("text").asText(),
                                        names(c.input().get("known_tools")))),
                        step("strip_tool_narration", c -> ReplySanitizer.stripNarration(c.input().asText())),
                        step("strip_think_tags_inline", c -> ReplySanitizer.stripThink(c.input().asText())),
                        step("strip_tool_summary_prefix", c -> ReplySanitizer.stripToolSummaryPrefix(c.input().asText())),
                        step("strip_tool_result_content", c -> ReplySanitizer.stripToolResultBlocks(c.input().asText())),
                        // the peer's strip_tool_result_blocks also drops think blocks; here that is its own step
                        step("strip_tool_result_blocks",
                                c -> ReplySanitizer.stripToolResultBlocks(ReplySanitizer.stripThink(c.input().asText()))))
                .flatMap(s -> s);
    }

    private static Stream<DynamicTest> step(String function, Function<PeerCase, String> run) {
        return PeerCases.forFunction(function).stream()
                .map(c -> dynamicTest(c.displayName() + " [SPEC RP-2]", () -> check(c, run.apply(c))));
    }

    static void check(PeerCase c, String actual) {
        JsonNode e = c.expected();
        if (e.isTextual()) {
            assertThat(actual).as("sanitised %s", c.input()).isEqualTo(e.asText());
            return;
        }
        if (e.has("nonblank_lines_joined_with_newline")) {
            String nonBlank = Arrays.stream(actual.split("\n")).filter(l -> !l.isBlank()).collect(Collectors.joining("\n"));
            assertThat(nonBlank).isEqualTo(e.get("nonblank_lines_joined_with_newline").asText());
            return;
        }
        assertThat(e.has("contains") || e.has("not_contains")).as("a known expectation shape: %s", e).isTrue();
        for (JsonNode s : e.path("contains")) assertThat(actual).contains(s.asText());
        for (JsonNode s : e.path("not_contains")) assertThat(actual).doesNotContain(s.asText());
    }

    static Set<String> names(JsonNode array) {
        Set<String> out = new HashSet<>();
        if (array != null) array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
