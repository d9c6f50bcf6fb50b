package dev.clawgate.core.internal.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keys beyond the peer cases. */
class ConversationKeysTest {
    private static InboundMessage msg(String id, String account, String thread, String scope) {
        return new InboundMessage(
                id,
                "slack",
                account,
                "U1",
                null,
                "C9",
                thread,
                scope,
                ChatType.GROUP,
                true,
                Instant.ofEpochMilli(1234),
                "hi",
                List.of(),
                null);
    }

    // SPEC HI-1: a shared group session has no sender; a real thread is its own session
    @Test
    void aSharedGroupSessionLeavesTheSenderOutAndKeepsARealThread() {
        SessionKey k = ConversationKeys.sessionKey(msg("m2", "work", "t1", null), ConversationScope.REPLY_TARGET);
        assertThat(k.sender()).isNull();
        assertThat(k.threadId()).isEqualTo("t1");
        assertThat(ConversationKeys.historyKey(k)).isEqualTo("slack_work_C9_t1");
    }

    // SPEC HI-1: a thread's root (its thread id is its own id) and the replies in it are one session
    @Test
    void aThreadRootAndItsRepliesShareOneSession() {
        for (ConversationScope scope : ConversationScope.values()) {
            assertThat(ConversationKeys.sessionKey(msg("t1", null, "t1", null), scope))
                    .isEqualTo(ConversationKeys.sessionKey(msg("t2", null, "t1", null), scope));
        }
        assertThat(ConversationKeys.historyKey(msg("t1", null, "t1", null), ConversationScope.SENDER))
                .isEqualTo("slack_C9_t1_U1");
        assertThat(ConversationKeys.historyKey(msg("t1", null, "", null), ConversationScope.SENDER))
                .isEqualTo("slack_C9_U1");
    }

    // SPEC DI-4
    @Test
    void theInterruptionScopeAddsTheScopeIdOnlyWhenThereIsOne() {
        assertThat(ConversationKeys.interruptionScopeKey(msg("1", null, null, null)))
                .isEqualTo("slack_C9_U1");
        assertThat(ConversationKeys.interruptionScopeKey(msg("1", null, null, "")))
                .isEqualTo("slack_C9_U1");
        assertThat(ConversationKeys.interruptionScopeKey(msg("1", null, null, "t.1")))
                .isEqualTo("slack_C9_U1_t.1");
    }

    // SPEC ME-1: unique per message, with the thread when there is one
    @Test
    void theMemoryKeyNamesThreadSenderAndMessage() {
        assertThat(ConversationKeys.memoryKey(msg("1.5", null, "t", null))).isEqualTo("slack_t_U1_1_5");
        assertThat(ConversationKeys.memoryKey(msg("9", null, "", null))).isEqualTo("slack_U1_9");
        assertThat(ConversationKeys.memoryKey(msg(null, null, null, null))).isEqualTo("slack_U1_t1234");
        assertThat(ConversationKeys.memoryKey(msg("", null, null, null))).isEqualTo("slack_U1_t1234");
    }

    // SPEC HI-1
    @Test
    void sanitisingKeepsLettersOfAnyScriptAndReplacesEverythingElse() {
        assertThat(ConversationKeys.sanitize("Zürich-東京_1 a/b\uD83D\uDE00")).isEqualTo("Zürich-東京_1_a_b_");
        assertThat(ConversationKeys.sanitize(null)).isEmpty();
    }
}
