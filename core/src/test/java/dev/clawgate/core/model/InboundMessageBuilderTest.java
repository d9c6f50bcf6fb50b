package dev.clawgate.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class InboundMessageBuilderTest {
    private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");

    @Test
    void theBuilderNamesEachFieldTheCanonicalConstructorTakesInOrder() {
        // SPEC MD-1: every field of an inbound message, set by name, lands where the constructor puts it
        InboundMessage positional = new InboundMessage(
                "m-1",
                "telegram",
                "bot2",
                "alice",
                "Alice",
                "chat-1",
                "t-9",
                "scope",
                ChatType.GROUP,
                false,
                T0,
                "hello",
                List.of(),
                "{\"update_id\":1}");
        InboundMessage named = InboundMessage.builder()
                .id("m-1")
                .channel("telegram")
                .account("bot2")
                .sender("alice")
                .senderName("Alice")
                .replyTarget("chat-1")
                .threadId("t-9")
                .scopeId("scope")
                .chatType(ChatType.GROUP)
                .mentioned(false)
                .timestamp(T0)
                .text("hello")
                .attachments(List.of())
                .rawPayload("{\"update_id\":1}")
                .build();
        assertThat(named).isEqualTo(positional);
        assertThat(positional.toBuilder().build()).isEqualTo(positional);
        assertThat(positional.withText("bye"))
                .isEqualTo(positional.toBuilder().text("bye").build());
    }

    @Test
    void theDefaultsAreADirectMentionedMessageOnTheDefaultAccount() {
        // SPEC MD-1: the common case needs only channel, sender and reply target
        InboundMessage m = InboundMessage.builder()
                .channel("api")
                .sender("u")
                .replyTarget("u")
                .text("hi")
                .build();
        assertThat(m.account()).isEqualTo(InboundMessage.DEFAULT_ACCOUNT);
        assertThat(m.chatType()).isEqualTo(ChatType.DIRECT);
        assertThat(m.mentioned()).isTrue();
        assertThat(m.timestamp()).isNotNull();
        assertThat(m.attachments()).isEmpty();
        assertThatThrownBy(() ->
                        InboundMessage.builder().channel("api").replyTarget("u").build())
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("sender");
    }
}
