package dev.clawgate.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.fixtures.PeerCases;
import dev.clawgate.core.fixtures.PeerCases.PeerCase;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.ToolCall;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
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
                .map(c -> dynamicTest(c.displayName() + " [SPEC HI-3]", () ->
                        assertThat(wire(HistoryNormalizer.normalize(messages(c.input()), true)))
                                .isEqualTo(wire(messages(c.expected())))));
    }

    // SPEC HI-4
    @TestFactory
    Stream<DynamicTest> budgetTrimmingMatchesEveryPeerCase() {
        return Stream.concat(
                PeerCases.forFunction("trim_to_recent_turns").stream().map(c -> dynamicTest(c.displayName() + " [SPEC HI-4]", () -> {
                    long budget = HistoryTrimmer.charsForTokens(c.input().get("budget_tokens").asLong());
                    checkTrim(c, HistoryTrimmer.trim(messages(c.input().get("history")), budget));
                })),
                // the provider retry path trims as hard as it can: the current turn and the system prompt still stay
                PeerCases.forFunction("truncate_for_context").stream().map(c -> dynamicTest(c.displayName() + " [SPEC HI-4]", () ->
                        checkTrim(c, HistoryTrimmer.trim(messages(c.input()), 1)))));
    }

    // SPEC HI-4, HI-2
    @TestFactory
    Stream<DynamicTest> messageCountTrimmingMatchesEveryPeerCase() {
        return Stream.concat(
                PeerCases.forFunction("trim_conversation_to_recent_turns").stream().map(c -> dynamicTest(c.displayName() + " [SPEC HI-4]", () -> {
                    JsonNode h = c.input().get("history");
                    List<ChatMessage> history = h.isTextual() ? toolHeavyTurn(h.asText()) : messages(h);
                    checkTrim(c, HistoryTrimmer.trimToMessages(history, c.input().get("max_messages").asInt()));
                })),
                PeerCases.forFunction("append_sender_turn").stream().map(c -> dynamicTest(c.displayName() + " [SPEC HI-2]", () -> {
                    List<ChatMessage> out = HistoryTrimmer.appendBounded(messages(c.input().get("history")),
                            messages(JsonNodeFactory.instance.arrayNode().add(c.input().get("append"))).get(0), 50);
                    assertThat(wire(out)).isEqualTo(wire(messages(c.expected())));
                })));
    }

    // SPEC HI-5
    @TestFactory
    Stream<DynamicTest> compactionMatchesEveryPeerCase() {
        return PeerCases.forFunction("compact_sender_history").stream().map(c -> dynamicTest(c.displayName() + " [SPEC HI-5]", () -> {
            List<ChatMessage> history = alternatingLongTurns(c.input().get("history").asText());
            Compaction out = Compactor.compact(history);
            JsonNode e = c.expected();
            assertThat(out.compacted()).isEqualTo(e.get("returns").asBoolean());
            assertThat(out.history()).hasSize(e.get("kept_count").asInt());
            assertThat(out.history().get(0).content()).startsWith(e.get("first_kept_content_prefix").asText());
            assertThat(out.history()).allSatisfy(m -> {
                assertThat(m.content()).hasSize(e.get("each_content_len").asInt());
                assertThat(m.content()).endsWith(e.get("each_content_endswith").asText());
            });
            for (int i = 0; i < out.history().size(); i++) {
                assertThat(out.history().get(i).role()).as("re-normalised: roles alternate").isEqualTo(i % 2 == 0 ? Role.USER : Role.ASSISTANT);
            }
        }));
    }

    private static void checkTrim(PeerCase c, TrimResult r) {
        JsonNode e = c.expected();
        if (e.has("trimmed")) assertThat(r.trimmed()).isEqualTo(e.get("trimmed").asBoolean());
        if (e.has("history_len")) assertThat(r.history()).hasSize(e.get("history_len").asInt());
        if (e.has("kept_turns")) assertThat(r.keptTurns()).isEqualTo(e.get("kept_turns").asInt());
        if (e.has("dropped_messages")) assertThat(r.droppedMessages()).isEqualTo(e.get("dropped_messages").asInt());
        if (e.has("dropped")) assertThat(r.droppedMessages()).isEqualTo(e.get("dropped").asInt());
        if (e.has("dropped_turns")) assertThat(r.droppedTurns()).isEqualTo(e.get("dropped_turns").asInt());
        if (e.has("history")) assertThat(wire(r.history())).isEqualTo(wire(messages(e.get("history"))));
        if (e.has("history_contains_content_prefix")) {
            assertThat(r.history()).anySatisfy(m -> assertThat(m.content()).startsWith(e.get("history_contains_content_prefix").asText()));
        }
    }

    /** "N turns i=0..N-1 alternating user(even)/assistant(odd), content = 'msg-<i>-' + 'x'*700", as the fixture describes it. */
    static List<ChatMessage> alternatingLongTurns(String description) {
        assertThat(description).as("fixture description").contains("20 turns").contains("'x'*700");
        List<ChatMessage> out = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String content = "msg-" + i + "-" + "x".repeat(700);
            out.add(i % 2 == 0 ? ChatMessage.user(content) : ChatMessage.assistant(content));
        }
        return out;
    }

    /** "1 user + 31 (assistant tool-call, tool-result) pairs + assistant 'workflow complete' = 64 messages". */
    static List<ChatMessage> toolHeavyTurn(String description) {
        assertThat(description).as("fixture description").contains("31 (assistant tool-call, tool-result) pairs");
        List<ChatMessage> out = new ArrayList<>();
        out.add(ChatMessage.user("run the workflow"));
        for (int i = 1; i <= 31; i++) {
            ToolCall call = new ToolCall("call_" + i, "shell", JsonNodeFactory.instance.objectNode().put("command", "step " + i));
            out.add(ChatMessage.assistant("", List.of(call)));
            out.add(ChatMessage.tool("call_" + i, "shell", "ok " + i));
        }
        out.add(ChatMessage.assistant("workflow complete"));
        return out;
    }

    static List<ChatMessage> messages(JsonNode array) {
        List<ChatMessage> out = new ArrayList<>();
        for (JsonNode m : array) {
            out.add(new ChatMessage(Role.fromWire(m.get("role").asText()), m.get("content").asText(), List.of(), null, null));
        }
        return out;
    }

    /** role and content only: what the fixtures compare. */
    static List<String> wire(List<ChatMessage> messages) {
        return messages.stream().map(m -> m.role().wireName() + ": " + m.content()).toList();
    }
}
