package dev.clawgate.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.fixtures.PeerCases;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Table-driven from shared/fixtures/peer-cases.json: history, interruption-scope and memory keys. */
class ConversationKeysPeerCasesTest {

    // SPEC HI-1
    @TestFactory
    Stream<DynamicTest> historyKeysMatchEveryPeerCase() {
        return PeerCases.forFunction("conversation_history_key").stream().map(c -> dynamicTest(c.displayName() + " [SPEC HI-1]", () -> {
            JsonNode in = c.input();
            JsonNode e = c.expected();
            if (e.isTextual()) {
                assertThat(ConversationKeys.historyKey(message(in), scope(in))).isEqualTo(e.asText());
                return;
            }
            String a = ConversationKeys.historyKey(message(in.get("a")), scope(in.get("a")));
            String b = ConversationKeys.historyKey(message(in.get("b")), scope(in.get("b")));
            assertThat(a.equals(b)).isEqualTo(e.get("keys_equal").asBoolean());
            for (JsonNode s : e.path("key_not_contains")) assertThat(a).doesNotContain(s.asText());
            if (e.has("derived_key")) assertThat(a).isEqualTo(e.get("derived_key").asText());
        }));
    }

    // SPEC DI-4, ME-1, HI-1
    @TestFactory
    Stream<DynamicTest> scopeMemoryAndSanitisedKeysMatchEveryPeerCase() {
        return Stream.of(
                PeerCases.forFunction("interruption_scope_key").stream().map(c -> dynamicTest(c.displayName() + " [SPEC DI-4]", () ->
                        assertThat(ConversationKeys.interruptionScopeKey(message(c.input()))).isEqualTo(c.expected().asText()))),
                PeerCases.forFunction("conversation_memory_key").stream().map(c -> dynamicTest(c.displayName() + " [SPEC ME-1]", () ->
                        assertThat(ConversationKeys.memoryKey(message(c.input()))).isEqualTo(c.expected().asText()))),
                PeerCases.forFunction("sanitize_session_key").stream().map(c -> dynamicTest(c.displayName() + " [SPEC HI-1]", () -> {
                    String once = ConversationKeys.sanitize(c.input().asText());
                    assertThat(once).isEqualTo(c.expected().asText());
                    assertThat(ConversationKeys.sanitize(once)).as("idempotent").isEqualTo(once);
                }))).flatMap(s -> s);
    }

    /** The peer's message fields on our model: channel_alias is the account, thread_ts the thread id. */
    static InboundMessage message(JsonNode in) {
        ChatType type = "ReplyTarget".equals(in.path("conversation_scope").asText()) ? ChatType.GROUP : ChatType.DIRECT;
        return new InboundMessage(text(in, "id"), in.get("channel").asText(), text(in, "channel_alias"), in.get("sender").asText(),
                null, in.get("reply_target").asText(), text(in, "thread_ts"), text(in, "interruption_scope_id"), type, true,
                Instant.EPOCH, "hello", List.of(), null);
    }

    static ConversationScope scope(JsonNode in) {
        return "ReplyTarget".equals(in.path("conversation_scope").asText()) ? ConversationScope.REPLY_TARGET : ConversationScope.SENDER;
    }

    private static String text(JsonNode in, String field) {
        JsonNode v = in.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
