package dev.clawgate.core.internal.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.ToolCall;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** History normalisation beyond the peer cases: protocol stripping, images, tool messages, system prompts. */
class HistoryNormalizerTest {
    private static final ToolCall CALL = new ToolCall("c1", "shell", JsonNodeFactory.instance.objectNode());

    private static List<String> wire(List<ChatMessage> messages) {
        return HistoryPeerCasesTest.wire(messages);
    }

    // SPEC HI-3: tool results from earlier turns go; the current message keeps what the user wrote
    @Test
    void toolResultsAreStrippedFromEarlierTurnsOnly() {
        List<ChatMessage> in = List.of(
                ChatMessage.user("[Tool results]\n<tool_result name=\"shell\">old output</tool_result>"),
                ChatMessage.user("question"),
                ChatMessage.assistant("answer <tool_result>x</tool_result>"),
                ChatMessage.user("why does <tool_result> appear?"));
        assertThat(wire(HistoryNormalizer.normalize(in, true)))
                .containsExactly("user: question", "assistant: answer", "user: why does <tool_result> appear?");
    }

    // SPEC HI-3, AG-4: no vision, no image markers
    @Test
    void imageMarkersAreRemovedOnlyWithoutVision() {
        List<ChatMessage> in = List.of(
                ChatMessage.user("[IMAGE:/a.png]"),
                ChatMessage.assistant("nice   [IMAGE:/b.png]  photo"),
                ChatMessage.user("look [IMAGE:/c.png]\n\n\n\nagain"));
        assertThat(wire(HistoryNormalizer.normalize(in, false))).containsExactly("user: look\n\nagain");
        assertThat(HistoryNormalizer.normalize(in, true)).hasSize(3);
        assertThat(HistoryNormalizer.withoutImageMarkers("plain")).isEqualTo("plain");
    }

    // SPEC HI-3: the current turn is never lost, even when nothing of it is left for the model
    @Test
    void theCurrentUserMessageStaysEvenWhenEmptied() {
        List<ChatMessage> out = HistoryNormalizer.normalize(
                List.of(ChatMessage.user("hi"), ChatMessage.assistant("yo"), ChatMessage.user("[IMAGE:/x.png]")),
                false);
        assertThat(wire(out)).containsExactly("user: hi", "assistant: yo", "user: ");
    }

    // SPEC HI-3: tool messages stay after their call; orphans go
    @Test
    void toolMessagesStayOnlyAfterAnAssistantMessage() {
        List<ChatMessage> in = List.of(
                ChatMessage.tool("c0", "shell", "orphan before anything"),
                ChatMessage.user("do it"),
                ChatMessage.tool("c9", "shell", "orphan after user"),
                ChatMessage.assistant("", List.of(CALL)),
                ChatMessage.tool("c1", "shell", "r1"),
                ChatMessage.tool("c1", "shell", "r2"),
                ChatMessage.assistant("done"));
        List<ChatMessage> out = HistoryNormalizer.normalize(in, true);
        assertThat(out)
                .extracting(ChatMessage::role)
                .containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL, Role.TOOL, Role.ASSISTANT);
        assertThat(out.get(1).toolCalls()).containsExactly(CALL);
        assertThat(out.get(2).content()).isEqualTo("r1");
    }

    // SPEC HI-3: merging keeps tool calls and skips empty sides
    @Test
    void mergingKeepsToolCallsAndDoesNotAddBlankLinesForEmptyText() {
        List<ChatMessage> in = List.of(
                ChatMessage.user("q"),
                ChatMessage.assistant("", List.of(CALL)),
                ChatMessage.assistant("text"),
                ChatMessage.assistant("", List.of(CALL)));
        List<ChatMessage> out = HistoryNormalizer.normalize(in, true);
        assertThat(out).hasSize(2);
        assertThat(out.get(1).content()).isEqualTo("text");
        assertThat(out.get(1).toolCalls()).containsExactly(CALL, CALL);
    }

    // SPEC HI-3: the system prompt leads
    @Test
    void systemMessagesMoveToTheFront() {
        List<ChatMessage> in = List.of(
                ChatMessage.user("a"), ChatMessage.system("s1"), ChatMessage.user("b"), ChatMessage.system("s2"));
        assertThat(wire(HistoryNormalizer.normalize(in, true)))
                .containsExactly("system: s1", "system: s2", "user: a\n\nb");
    }

    // SPEC HI-3: unchanged messages are the same objects; the result cannot be modified
    @Test
    void untouchedMessagesAreKeptAndTheResultIsImmutable() {
        ChatMessage u = ChatMessage.user("hello");
        List<ChatMessage> out = HistoryNormalizer.normalize(new ArrayList<>(List.of(u)), false);
        assertThat(out.get(0)).isSameAs(u);
        assertThatThrownBy(() -> out.add(u)).isInstanceOf(UnsupportedOperationException.class);
    }

    // SPEC HI-3: bad input is a clear error, not a broken history
    @Test
    void nullInputIsAClearError() {
        assertThatThrownBy(() -> HistoryNormalizer.normalize(null, true)).hasMessageContaining("messages");
        List<ChatMessage> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> HistoryNormalizer.normalize(withNull, true)).hasMessageContaining("null");
    }
}
