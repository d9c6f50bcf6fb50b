package dev.clawgate.core.internal.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ToolCall;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Proactive trimming beyond the peer cases. */
class HistoryTrimmerTest {
    private static final ToolCall CALL =
            new ToolCall("c1", "shell", JsonNodeFactory.instance.objectNode().put("command", "ls"));

    // SPEC HI-4: a tool call and its result go together
    @Test
    void aToolCallAndItsResultsAreDroppedTogether() {
        List<ChatMessage> h = List.of(
                ChatMessage.user("old"),
                ChatMessage.assistant("", List.of(CALL)),
                ChatMessage.tool("c1", "shell", "x".repeat(100)),
                ChatMessage.assistant("old answer"),
                ChatMessage.user("new"),
                ChatMessage.assistant("new answer"));
        TrimResult r = HistoryTrimmer.trim(h, 30);
        assertThat(HistoryPeerCasesTest.wire(r.history())).containsExactly("user: new", "assistant: new answer");
        assertThat(r.droppedMessages()).isEqualTo(4);
        assertThat(r.droppedTurns()).isEqualTo(1);
        assertThat(r.keptTurns()).isEqualTo(1);
        assertThat(r.trimmed()).isTrue();
    }

    // SPEC HI-4: only as much as needed
    @Test
    void trimmingStopsAsSoonAsTheHistoryFits() {
        List<ChatMessage> h = List.of(
                ChatMessage.user("aaaa"),
                ChatMessage.assistant("bbbb"),
                ChatMessage.user("cccc"),
                ChatMessage.assistant("dddd"),
                ChatMessage.user("eeee"));
        TrimResult r = HistoryTrimmer.trim(h, 12);
        assertThat(HistoryPeerCasesTest.wire(r.history()))
                .containsExactly("user: cccc", "assistant: dddd", "user: eeee");
        assertThat(HistoryTrimmer.trim(h, 20).trimmed()).isFalse();
        assertThat(HistoryTrimmer.trim(h, 20).history()).isEqualTo(h);
        assertThat(HistoryTrimmer.trim(h, 19).droppedMessages()).isEqualTo(2);
    }

    // SPEC HI-4: budget 0 disables trimming; system prompts neither count as messages nor get dropped
    @Test
    void aZeroBudgetDisablesTrimmingAndSystemMessagesDoNotCount() {
        List<ChatMessage> h = List.of(
                ChatMessage.system("s"),
                ChatMessage.user("aaaa"),
                ChatMessage.assistant("bbbb"),
                ChatMessage.user("cccc"));
        assertThat(HistoryTrimmer.trim(h, 0).history()).isEqualTo(h);
        assertThat(HistoryTrimmer.trim(h, -1).trimmed()).isFalse();
        assertThat(HistoryTrimmer.trimToMessages(h, 3).trimmed()).isFalse();
        TrimResult r = HistoryTrimmer.trimToMessages(h, 2);
        assertThat(HistoryPeerCasesTest.wire(r.history())).containsExactly("system: s", "user: cccc");
        assertThat(r.keptTurns()).isEqualTo(1);
        assertThat(HistoryTrimmer.trim(h, 9).history())
                .extracting(ChatMessage::content)
                .containsExactly("s", "cccc");
    }

    // SPEC HI-4: tool-call arguments count against the budget
    @Test
    void sizeCountsTextAndToolCallArguments() {
        assertThat(HistoryTrimmer.size(ChatMessage.assistant("ab", List.of(CALL))))
                .isEqualTo(2 + 5 + "{\"command\":\"ls\"}".length());
        assertThat(HistoryTrimmer.charsForTokens(100)).isEqualTo(400);
    }

    // SPEC HI-4: messages before the first user message are the oldest turn
    @Test
    void aLeadingAssistantMessageIsItsOwnOldestTurn() {
        List<ChatMessage> h =
                List.of(ChatMessage.assistant("stray"), ChatMessage.user("q"), ChatMessage.assistant("a"));
        TrimResult r = HistoryTrimmer.trimToMessages(h, 2);
        assertThat(HistoryPeerCasesTest.wire(r.history())).containsExactly("user: q", "assistant: a");
        assertThat(r.droppedTurns()).isEqualTo(1);
        assertThat(HistoryTrimmer.trimToMessages(h, 3).trimmed()).isFalse();
        assertThat(HistoryTrimmer.trimToMessages(List.of(), 0).keptTurns()).isZero();
    }

    // SPEC HI-2
    @Test
    void appendingDropsTheOldestBeyondTheCap() {
        List<ChatMessage> h = List.of(ChatMessage.user("1"), ChatMessage.assistant("2"));
        assertThat(HistoryPeerCasesTest.wire(HistoryTrimmer.appendBounded(h, ChatMessage.user("3"), 2)))
                .containsExactly("assistant: 2", "user: 3");
        assertThat(HistoryTrimmer.appendBounded(h, ChatMessage.user("3"), 3)).hasSize(3);
    }

    // SPEC HI-4: bad limits are clear errors
    @Test
    void badLimitsAreClearErrors() {
        assertThatThrownBy(() -> HistoryTrimmer.trimToMessages(List.of(), -1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> HistoryTrimmer.appendBounded(List.of(), ChatMessage.user("x"), 0))
                .hasMessageContaining("0");
        assertThatThrownBy(() -> HistoryTrimmer.appendBounded(List.of(), null, 5))
                .hasMessageContaining("message");
        assertThatThrownBy(() -> HistoryTrimmer.trim(null, 5)).hasMessageContaining("history");
    }
}
