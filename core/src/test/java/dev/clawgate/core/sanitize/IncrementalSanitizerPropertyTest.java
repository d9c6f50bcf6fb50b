package dev.clawgate.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.fixtures.PeerCases;
import dev.clawgate.core.fixtures.PropertyRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Properties of the streaming sanitiser over random cuts of the fixture texts and of generated replies. */
class IncrementalSanitizerPropertyTest {
    private static final Set<String> TOOLS = Set.of("shell", "schedule", "mock_price", "file_read");
    private static final Pattern PROTOCOL_TAG = Pattern.compile(
            "(?i)</?(?:[a-z][\\w-]*:)?(?:tool_call|toolcall|tool-call|invoke|tool_result)(?:[\\s/>]|$)|</?think(?:[\\s/>]|$)");
    private static final String[] PROTOCOL_PIECES = {
            "<think>reasoning here</think>", "<tool_call>{\"name\":\"shell\",\"arguments\":{\"command\":\"ls\"}}</tool_call>",
            "<tool_result name=\"shell\">out</tool_result>", "<invoke name=\"x\"><parameter name=\"a\">1</parameter></invoke>",
            "<toolcall>{\"name\":\"a\"}</toolcall>", "<tool-call>broken", "</tool_call>", "<think>unclosed",
            "\n```tool_call\n{\"name\":\"shell\"}\n```\n", "\n{\"name\":\"shell\",\"arguments\":{}}\n", "<minimax:tool_call>x</minimax:tool_call>"};
    private static final String[] PLAIN_PIECES = {
            "alpha", "beta gamma", " ", " ", "\n", "\n\n", "3 > 2", "a < b", "x<5", "(ok)", "caf\u00e9", "\uD83D\uDE00", "tab\there",
            "<b>bold</b>", "</p>", "<thinking-cap>", "[link](u)", "done.", "1, 2, 3"};

    private static List<String> fixtureTexts() {
        List<String> texts = new ArrayList<>();
        for (PeerCases.PeerCase c : PeerCases.all()) {
            JsonNode in = c.input();
            if (in.isTextual()) texts.add(in.asText());
            else if (in.isObject() && in.path("text").isTextual()) texts.add(in.get("text").asText());
        }
        return texts;
    }

    private static String streamed(String text, Random r) {
        IncrementalSanitizer s = new IncrementalSanitizer(TOOLS);
        StringBuilder out = new StringBuilder();
        int pos = 0;
        while (pos < text.length()) {
            int next = Math.min(text.length(), pos + 1 + r.nextInt(Math.max(1, Math.min(12, text.length()))));
            out.append(s.push(text.substring(pos, next)));
            pos = next;
        }
        return out.append(s.finish()).toString();
    }

    private static String whole(String text) {
        IncrementalSanitizer s = new IncrementalSanitizer(TOOLS);
        return s.push(text) + s.finish();
    }

    private static String generated(Random r, boolean withProtocol) {
        StringBuilder sb = new StringBuilder(PLAIN_PIECES[r.nextInt(2)]);
        int n = 1 + r.nextInt(12);
        for (int i = 0; i < n; i++) {
            String[] pool = withProtocol && r.nextInt(3) == 0 ? PROTOCOL_PIECES : PLAIN_PIECES;
            sb.append(pool[r.nextInt(pool.length)]);
        }
        return sb.toString();
    }

    // SPEC RP-2: the user never sees protocol text, however the stream is cut
    @Test
    void randomCutsOfFixtureTextsNeverEmitProtocolTagsAndDoNotChangeTheResult() {
        List<String> texts = fixtureTexts();
        assertThat(texts).hasSizeGreaterThan(50);
        PropertyRun.forAll("streamed fixture texts", r -> {
            String text = texts.get(r.nextInt(texts.size()));
            String out = streamed(text, r);
            assertThat(PROTOCOL_TAG.matcher(out).find()).as("protocol tag in %s streamed from %s", out, text).isFalse();
            assertThat(out).as("split-independent for %s", text).isEqualTo(whole(text));
        });
    }

    // SPEC RP-2
    @Test
    void generatedRepliesWithProtocolPiecesNeverEmitProtocolTags() {
        PropertyRun.forAll("streamed generated replies", r -> {
            String text = generated(r, true);
            String out = streamed(text, r);
            assertThat(PROTOCOL_TAG.matcher(out).find()).as("protocol tag in %s streamed from %s", out, text).isFalse();
            assertThat(out).as("split-independent for %s", text).isEqualTo(whole(text));
            assertThat(PROTOCOL_TAG.matcher(ReplySanitizer.sanitize(text, TOOLS)).find()).as("batch sanitiser on %s", text).isFalse();
        });
    }

    // SPEC RP-2: text without protocol comes out exactly as it went in
    @Test
    void plainRepliesComeOutUnchanged() {
        PropertyRun.forAll("streamed plain replies", r -> {
            String text = generated(r, false);
            assertThat(streamed(text, r)).isEqualTo(text);
            assertThat(ReplySanitizer.sanitize(text, TOOLS)).isEqualTo(text);
        });
    }
}
