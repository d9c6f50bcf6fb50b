package dev.clawgate.channel.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

// The inbound JSON of the generic webhook and its errors (SPEC MD-1, IN-4: a bad body is 400 and stores nothing).
class WebhookPayloadTest {
    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

    private static InboundMessage parse(String json) throws WebhookPayload.Invalid {
        return WebhookPayload.parse(json.getBytes(StandardCharsets.UTF_8), "webhook", () -> NOW);
    }

    private static void rejects(String json, String why) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(WebhookPayload.Invalid.class)
                .hasMessageContaining(why);
    }

    @Test
    void everyFieldMapsOntoTheMessage() throws Exception {
        // SPEC MD-1
        String json =
                "{\"id\":\"m-1\",\"sender\":\"u-7\",\"sender_name\":\"Ann\",\"chat\":\"room-3\",\"chat_type\":\"group"
                        + "\","
                        + "\"thread\":\"t-9\",\"mentioned\":true,\"text\":\"hello "
                        + "there\",\"timestamp\":1700000000123,\"extra\":[1]}";
        InboundMessage m = parse(json);
        assertThat(m.id()).isEqualTo("m-1");
        assertThat(m.channel()).isEqualTo("webhook");
        assertThat(m.account()).isEqualTo(InboundMessage.DEFAULT_ACCOUNT);
        assertThat(m.sender()).isEqualTo("u-7");
        assertThat(m.senderName()).isEqualTo("Ann");
        assertThat(m.replyTarget()).isEqualTo("room-3");
        assertThat(m.chatType()).isEqualTo(ChatType.GROUP);
        assertThat(m.threadId()).isEqualTo("t-9");
        assertThat(m.mentioned()).isTrue();
        assertThat(m.text()).isEqualTo("hello there");
        assertThat(m.timestamp()).isEqualTo(Instant.ofEpochMilli(1_700_000_000_123L));
        assertThat(m.rawPayload()).isEqualTo(json);
    }

    @Test
    void optionalFieldsTakeTheirDefaults() throws Exception {
        // SPEC MD-1: a direct chat by default, mentioned there, stamped on arrival
        InboundMessage m = parse("{\"id\":42,\"sender\":\"u\",\"chat\":\"u\",\"text\":\"hi\"}");
        assertThat(m.id()).isEqualTo("42");
        assertThat(m.chatType()).isEqualTo(ChatType.DIRECT);
        assertThat(m.mentioned()).isTrue();
        assertThat(m.threadId()).isNull();
        assertThat(m.senderName()).isNull();
        assertThat(m.timestamp()).isEqualTo(NOW);
        assertThat(parse("{\"id\":\"g\",\"sender\":\"u\",\"chat\":\"r\",\"chat_type\":\"group\",\"text\":\"hi\"}")
                        .mentioned())
                .isFalse();
    }

    @Test
    void malformedBodiesAreRejectedWithAClearReason() {
        // SPEC IN-4: a malformed body gets 400 with a clear message
        rejects("", "body is empty");
        rejects("{\"id\":", "not valid JSON (line 1");
        rejects("[1,2]", "must be a JSON object");
        rejects("\"text\"", "must be a JSON object");
        assertThatThrownBy(() ->
                        WebhookPayload.parse(new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'}, "webhook", () -> NOW))
                .hasMessageContaining("not UTF-8");
    }

    @Test
    void missingOrMistypedFieldsAreNamed() {
        // SPEC IN-4: missing fields get 400 naming the field
        rejects("{\"sender\":\"u\",\"chat\":\"c\",\"text\":\"t\"}", "field 'id' is missing");
        rejects(
                "{\"id\":\" \",\"sender\":\"u\",\"chat\":\"c\",\"text\":\"t\"}",
                "field 'id' must be a non-empty string");
        rejects("{\"id\":1.5,\"sender\":\"u\",\"chat\":\"c\",\"text\":\"t\"}", "field 'id' must be");
        rejects("{\"id\":\"1\",\"chat\":\"c\",\"text\":\"t\"}", "field 'sender' is missing");
        rejects(
                "{\"id\":\"1\",\"sender\":7,\"chat\":\"c\",\"text\":\"t\"}",
                "field 'sender' must be a non-empty string");
        rejects("{\"id\":\"1\",\"sender\":\"u\",\"text\":\"t\"}", "field 'chat' is missing");
        rejects("{\"id\":\"1\",\"sender\":\"u\",\"chat\":\"c\"}", "field 'text' is missing");
        rejects("{\"id\":\"1\",\"sender\":\"u\",\"chat\":\"c\",\"text\":3}", "field 'text' must be a string");
        rejects("{\"id\":\"1\",\"sender\":\"u\",\"chat\":\"c\",\"text\":\"  \"}", "field 'text' is empty");
        rejects(
                "{\"id\":\"1\",\"sender\":\"u\",\"chat\":\"c\",\"text\":\"t\",\"chat_type\":\"channel\"}",
                "\"direct\" or \"group\"");
        rejects(
                "{\"id\":\"1\",\"sender\":\"u\",\"chat\":\"c\",\"text\":\"t\",\"mentioned\":\"yes\"}",
                "'mentioned' must be true or false");
        rejects(
                "{\"id\":\"1\",\"sender\":\"u\",\"chat\":\"c\",\"text\":\"t\",\"timestamp\":\"2024\"}",
                "epoch milliseconds");
        rejects("{\"id\":\"1\",\"sender\":\"u\",\"chat\":\"c\",\"text\":\"t\",\"timestamp\":-5}", "epoch milliseconds");
        rejects(
                "{\"id\":\"1\",\"sender\":\"u\",\"chat\":\"c\",\"text\":\"t\",\"thread\":{}}",
                "field 'thread' must be a string");
    }
}
