package dev.clawgate.channel.qq;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Reads a dispatch ({@code {"id", "op": 0, "s", "t", "d"}}) into an inbound message (SPEC CH-13, MD-1); never throws.
 * {@code GROUP_AT_MESSAGE_CREATE} (the bot was @-mentioned in a group: always addressed) answers in the group, whose
 * {@code group_openid} is the reply target (what {@code allowed_groups} lists); {@code C2C_MESSAGE_CREATE} is a direct
 * chat, whose reply target is {@code user:<user_openid>}. The message {@code id} is the inbox id (a redelivery is the
 * same record, IN-1) and the {@code msg_id} a passive reply carries. Attachments are named in the text.
 */
final class MessageReader {
    static final String GROUP_AT = "GROUP_AT_MESSAGE_CREATE";
    static final String C2C = "C2C_MESSAGE_CREATE";
    /** A direct chat's reply target is this prefix and the user's openid; a group's is its group_openid. */
    static final String USER_PREFIX = "user:";

    sealed interface Reading permits Ignored, Unreadable, Message {}

    record Ignored() implements Reading {}

    record Unreadable(String ref, String reason, String raw) implements Reading {}

    record Message(InboundMessage message) implements Reading {}

    private MessageReader() {}

    static Reading read(String type, JsonNode payload) {
        boolean group = GROUP_AT.equals(type);
        if (!group && !C2C.equals(type)) return new Ignored();
        JsonNode d = payload.path("d");
        String raw = payload.toString();
        String id = d.path("id").asText("");
        if (id.isEmpty()) return new Unreadable(payload.path("id").asText("?"), "a message without an id", raw);
        JsonNode author = d.path("author");
        String sender = author.path(group ? "member_openid" : "user_openid").asText("");
        if (sender.isEmpty()) sender = author.path("id").asText("");
        String chat = group ? d.path("group_openid").asText("") : sender;
        if (sender.isEmpty() || chat.isEmpty())
            return new Unreadable(id, "a message without its author's or group's openid", raw);
        StringBuilder text = new StringBuilder(d.path("content").asText("").strip());
        for (JsonNode a : d.path("attachments")) {
            String name = a.path("filename").asText(a.path("content_type").asText("a file"));
            if (!text.isEmpty()) text.append('\n');
            text.append("[attached ").append(name).append(']');
        }
        InboundMessage m = InboundMessage.builder()
                .id(id)
                .channel(QqChannel.NAME)
                .sender(sender)
                .replyTarget(group ? chat : USER_PREFIX + chat)
                .chatType(group ? ChatType.GROUP : ChatType.DIRECT)
                .mentioned(true)
                .timestamp(time(d.path("timestamp").asText("")))
                .text(text.toString())
                .rawPayload(raw)
                .build();
        return new Message(m);
    }

    private static Instant time(String iso) {
        try {
            return OffsetDateTime.parse(iso).toInstant();
        } catch (DateTimeParseException e) {
            return Instant.now();
        }
    }
}
