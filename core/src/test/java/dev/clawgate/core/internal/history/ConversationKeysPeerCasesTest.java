package dev.clawgate.core.internal.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.fixtures.Expected;
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
        return PeerCases.forFunction("conversation_history_key").stream()
                .map(c -> dynamicTest(c.displayName() + " [SPEC HI-1]", () -> {
                    JsonNode in = c.input();
                    JsonNode e = c.expected();
                    if (e.isTextual()) {
                        assertThat(ConversationKeys.historyKey(message(in), scope(in)))
                                .isEqualTo(e.asText());
                        return;
                    }
                    String a = ConversationKeys.historyKey(message(in.get("a")), scope(in.get("a")));
                    String b = ConversationKeys.historyKey(message(in.get("b")), scope(in.get("b")));
                    Expected x = Expected.of(c);
                    JsonNode v;
                    if ((v = x.take("keys_equal")) != null)
                        assertThat(a.equals(b)).isEqualTo(v.asBoolean());
                    if ((v = x.take("key_not_contains")) != null)
                        for (JsonNode s : v) assertThat(a + " " + b).doesNotContain(s.asText());
                    if ((v = x.take("derived_key")) != null) assertThat(a).isEqualTo(v.asText());
                    x.assertAllChecked();
                }));
    }

    // SPEC DI-4, ME-1, HI-1
    @TestFactory
    Stream<DynamicTest> scopeMemoryAndSanitisedKeysMatchEveryPeerCase() {
        return Stream.of(
                        PeerCases.forFunction("interruption_scope_key").stream()
                                .map(c -> dynamicTest(
                                        c.displayName() + " [SPEC DI-4]",
                                        () -> assertThat(ConversationKeys.interruptionScopeKey(message(c.input())))
                                                .isEqualTo(c.expected().asText()))),
                        PeerCases.forFunction("conversation_memory_key").stream()
                                .map(c -> dynamicTest(
                                        c.displayName() + " [SPEC ME-1]",
                                        () -> assertThat(ConversationKeys.memoryKey(message(c.input())))
                                                .isEqualTo(c.expected().asText()))),
                        PeerCases.forFunction("sanitize_session_key").stream()
                                .map(c -> dynamicTest(c.displayName() + " [SPEC HI-1]", () -> {
                                    String once =
                                            ConversationKeys.sanitize(c.input().asText());
                                    assertThat(once).isEqualTo(c.expected().asText());
                                    assertThat(ConversationKeys.sanitize(once))
                                            .as("idempotent")
                                            .isEqualTo(once);
                                })))
                .flatMap(s -> s);
    }

    /**
     * The peer's message fields on our model: channel_alias is the account, interruption_scope_id the scope id. The
     * peer's {@code thread_ts} is where its reply is delivered; on Matrix the peer sets it on every message as the
     * event to reply under (a delivery anchor, as its Matrix adapter documents), so there it is not a conversation
     * thread. Our Matrix adapter reports a thread only for an {@code m.thread} relation, which the peer's input does
     * not carry: the thread is null. On every other platform the peer's thread_ts is the platform's thread and maps to
     * ours as it is.
     */
    static InboundMessage message(JsonNode in) {
        ChatType type = "ReplyTarget".equals(in.path("conversation_scope").asText()) ? ChatType.GROUP : ChatType.DIRECT;
        String channel = in.get("channel").asText();
        String thread = PEER_ANCHOR_ONLY_THREADS.contains(channel) ? null : text(in, "thread_ts");
        return new InboundMessage(
                text(in, "id"),
                channel,
                text(in, "channel_alias"),
                in.get("sender").asText(),
                null,
                in.get("reply_target").asText(),
                thread,
                text(in, "interruption_scope_id"),
                type,
                true,
                Instant.EPOCH,
                "hello",
                List.of(),
                null);
    }

    /** Platforms whose peer adapter uses thread_ts only as a reply anchor. */
    private static final java.util.Set<String> PEER_ANCHOR_ONLY_THREADS = java.util.Set.of("matrix");

    static ConversationScope scope(JsonNode in) {
        return "ReplyTarget".equals(in.path("conversation_scope").asText())
                ? ConversationScope.REPLY_TARGET
                : ConversationScope.SENDER;
    }

    private static String text(JsonNode in, String field) {
        JsonNode v = in.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
