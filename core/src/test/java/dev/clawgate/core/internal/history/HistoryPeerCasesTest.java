package dev.clawgate.core.internal.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.clawgate.core.fixtures.Expected;
import dev.clawgate.core.fixtures.PeerCases;
import dev.clawgate.core.fixtures.PeerCases.PeerCase;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Table-driven from shared/fixtures/peer-cases.json: normalising, trimming and compacting history. */
class HistoryPeerCasesTest {

    // SPEC HI-3
    @TestFactory
    Stream<DynamicTest> normalisingMatchesEveryPeerCase() {
        // vision = true: the peer keeps [IMAGE:] markers verbatim, which SPEC HI-3 does for vision providers
        return PeerCases.forFunction("normalize_cached_channel_turns").stream()
                .map(c -> dynamicTest(
                        c.displayName() + " [SPEC HI-3]",
                        () -> assertThat(wire(HistoryNormalizer.normalize(messages(c.input()), true)))
                                .isEqualTo(wire(messages(c.expected())))));
    }

    // SPEC HI-4
    @TestFactory
    Stream<DynamicTest> budgetTrimmingMatchesEveryPeerCase() {
        return Stream.concat(
                PeerCases.forFunction("trim_to_recent_turns").stream()
                        .map(c -> dynamicTest(c.displayName() + " [SPEC HI-4]", () -> {
                            long budget = HistoryTrimmer.charsForTokens(
                                    c.input().get("budget_tokens").asLong());
                            checkTrim(c, HistoryTrimmer.trim(messages(c.input().get("history")), budget));
                        })),
                // the provider retry path trims as hard as it can: the current turn and the system prompt still stay
                PeerCases.forFunction("truncate_for_context").stream()
                        .map(c -> dynamicTest(
                                c.displayName() + " [SPEC HI-4]",
                                () -> checkTrim(c, HistoryTrimmer.trim(messages(c.input()), 1)))));
    }

    // SPEC HI-4, HI-2
    @TestFactory
    Stream<DynamicTest> messageCountTrimmingMatchesEveryPeerCase() {
        return Stream.concat(
                PeerCases.forFunction("trim_conversation_to_recent_turns").stream()
                        .map(c -> dynamicTest(c.displayName() + " [SPEC HI-4]", () -> {
                            JsonNode h = c.input().get("history");
                            List<ChatMessage> history = h.isTextual() ? toolHeavyTurn(h.asText()) : messages(h);
                            checkTrim(
                                    c,
                                    HistoryTrimmer.trimToMessages(
                                            history,
                                            c.input().get("max_messages").asInt()));
                        })),
                PeerCases.forFunction("append_sender_turn").stream()
                        .map(c -> dynamicTest(c.displayName() + " [SPEC HI-2]", () -> {
                            List<ChatMessage> out = HistoryTrimmer.appendBounded(
                                    messages(c.input().get("history")),
                                    messages(JsonNodeFactory.instance
                                                    .arrayNode()
                                                    .add(c.input().get("append")))
                                            .get(0),
                                    50);
                            assertThat(wire(out)).isEqualTo(wire(messages(c.expected())));
                        })));
    }

    // SPEC HI-5
    @TestFactory
    Stream<DynamicTest> compactionMatchesEveryPeerCase() {
        return PeerCases.forFunction("compact_sender_history").stream()
                .map(c -> dynamicTest(c.displayName() + " [SPEC HI-5]", () -> {
                    List<ChatMessage> history =
                            alternatingLongTurns(c.input().get("history").asText());
                    Compaction out = Compactor.compact(history);
                    Expected e = Expected.of(c);
                    assertThat(out.compacted()).isEqualTo(e.take("returns").asBoolean());
                    assertThat(out.history()).hasSize(e.take("kept_count").asInt());
                    assertThat(out.history().get(0).content())
                            .startsWith(e.take("first_kept_content_prefix").asText());
                    int len = e.take("each_content_len").asInt();
                    String end = e.take("each_content_endswith").asText();
                    assertThat(out.history()).allSatisfy(m -> {
                        assertThat(m.content()).hasSize(len);
                        assertThat(m.content()).endsWith(end);
                    });
                    e.assertAllChecked();
                    for (int i = 0; i < out.history().size(); i++) {
                        assertThat(out.history().get(i).role())
                                .as("re-normalised: roles alternate")
                                .isEqualTo(i % 2 == 0 ? Role.USER : Role.ASSISTANT);
                    }
                }));
    }

    private static void checkTrim(PeerCase c, TrimResult r) {
        Expected e = Expected.of(c);
        JsonNode v;
        if ((v = e.take("trimmed")) != null) assertThat(r.trimmed()).isEqualTo(v.asBoolean());
        if ((v = e.take("history_len")) != null) assertThat(r.history()).hasSize(v.asInt());
        if ((v = e.take("kept_turns")) != null) assertThat(r.keptTurns()).isEqualTo(v.asInt());
        if ((v = e.take("dropped_messages")) != null)
            assertThat(r.droppedMessages()).isEqualTo(v.asInt());
        if ((v = e.take("dropped")) != null) assertThat(r.droppedMessages()).isEqualTo(v.asInt());
        if ((v = e.take("dropped_turns")) != null) assertThat(r.droppedTurns()).isEqualTo(v.asInt());
        if ((v = e.take("history")) != null) assertThat(wire(r.history())).isEqualTo(wire(messages(v)));
        JsonNode prefix = e.take("history_contains_content_prefix");
        if (prefix != null)
            assertThat(r.history()).anySatisfy(m -> assertThat(m.content()).startsWith(prefix.asText()));
        e.assertAllChecked();
    }

    private static final Pattern TURNS = Pattern.compile(
            "(\\d+) turns .*alternating user\\(even\\)/assistant\\(odd\\), content = '([^']*)<i>([^']*)' \\+ "
                    + "'(.)'\\*(\\d+)");
    private static final Pattern TOOL_HEAVY = Pattern.compile(
            "1 user '([^']*)' \\+ (\\d+) \\(assistant tool-call, tool-result\\) pairs \\+ assistant '([^']*)' = "
                    + "(\\d+) messages");

    /**
     * Builds the history a description such as "N turns ... content = 'p<i>s' + 'x'*K" states, from the numbers in it.
     */
    static List<ChatMessage> alternatingLongTurns(String description) {
        Matcher m = TURNS.matcher(description);
        assertThat(m.find())
                .as("a history description this test can read: %s", description)
                .isTrue();
        int n = Integer.parseInt(m.group(1));
        String filler = m.group(4).repeat(Integer.parseInt(m.group(5)));
        List<ChatMessage> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String content = m.group(2) + i + m.group(3) + filler;
            out.add(i % 2 == 0 ? ChatMessage.user(content) : ChatMessage.assistant(content));
        }
        return out;
    }

    /**
     * Builds "1 user 'A' + N (assistant tool-call, tool-result) pairs + assistant 'B' = M messages" from its numbers
     * and texts.
     */
    static List<ChatMessage> toolHeavyTurn(String description) {
        Matcher m = TOOL_HEAVY.matcher(description);
        assertThat(m.find())
                .as("a history description this test can read: %s", description)
                .isTrue();
        int pairs = Integer.parseInt(m.group(2));
        List<ChatMessage> out = new ArrayList<>();
        out.add(ChatMessage.user(m.group(1)));
        for (int i = 1; i <= pairs; i++) {
            ToolCall call = new ToolCall(
                    "call_" + i, "shell", JsonNodeFactory.instance.objectNode().put("command", "step " + i));
            out.add(ChatMessage.assistant("", List.of(call)));
            out.add(ChatMessage.tool("call_" + i, "shell", "ok " + i));
        }
        out.add(ChatMessage.assistant(m.group(3)));
        assertThat(out).as("the description's own message count").hasSize(Integer.parseInt(m.group(4)));
        return out;
    }

    static List<ChatMessage> messages(JsonNode array) {
        List<ChatMessage> out = new ArrayList<>();
        for (JsonNode m : array) {
            out.add(new ChatMessage(
                    Role.fromWire(m.get("role").asText()), m.get("content").asText(), List.of(), null, null));
        }
        return out;
    }

    /** role and content only: what the fixtures compare. */
    static List<String> wire(List<ChatMessage> messages) {
        return messages.stream()
                .map(m -> m.role().wireName() + ": " + m.content())
                .toList();
    }
}
