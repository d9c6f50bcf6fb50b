package dev.clawgate.channel.webhook;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * The inbound JSON: {@code {"id", "sender", "sender_name"?, "chat", "chat_type"?: "direct"|"group", "thread"?,
 * "mentioned"?, "text", "timestamp"?: epoch-millis}}. Unknown fields are ignored, so a platform may send more; the raw
 * body is kept as the message's payload (SPEC MD-1).
 */
public final class WebhookPayload {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The longest id, sender, chat, thread or name accepted. */
    static final int MAX_ID_CHARS = 512;

    private WebhookPayload() {}

    /** Why a body is not a message; the text is safe to return to the platform. */
    public static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    /** Parses a body into a message of {@code channel}; {@code now} stamps one without a timestamp. */
    public static InboundMessage parse(byte[] body, String channel, Supplier<Instant> now) throws Invalid {
        String text = utf8(body);
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            // a limit hit (nesting too deep, a number too long) carries no location
            JsonLocation at = e.getLocation();
            throw new Invalid(
                    at == null
                            ? "body is not JSON the gateway can read (" + e.getOriginalMessage() + ")"
                            : "body is not valid JSON (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")");
        }
        if (root == null || !root.isObject()) throw new Invalid("body must be a JSON object");
        String id = id(root);
        String sender = required(root, "sender");
        String chat = required(root, "chat");
        if (!root.hasNonNull("text")) throw new Invalid("field 'text' is missing");
        if (!root.get("text").isTextual()) throw new Invalid("field 'text' must be a string");
        String messageText = root.get("text").asText();
        if (messageText.isBlank()) throw new Invalid("field 'text' is empty");
        ChatType type = chatType(root);
        boolean mentioned = bool(root, "mentioned", type == ChatType.DIRECT);
        Instant at = timestamp(root, now);
        return new InboundMessage(
                id,
                channel,
                InboundMessage.DEFAULT_ACCOUNT,
                sender,
                optional(root, "sender_name"),
                chat,
                optional(root, "thread"),
                null,
                type,
                mentioned,
                at,
                messageText,
                List.of(),
                text);
    }

    private static String utf8(byte[] body) throws Invalid {
        if (body == null || body.length == 0) throw new Invalid("body is empty; send a JSON object");
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new Invalid("body is not UTF-8");
        }
    }

    /** A platform id may come as a string or a whole number. */
    private static String id(JsonNode root) throws Invalid {
        JsonNode n = root.get("id");
        if (n == null || n.isNull()) throw new Invalid("field 'id' is missing");
        if (n.isIntegralNumber()) return n.asText();
        if (!n.isTextual() || n.asText().isBlank()) throw new Invalid("field 'id' must be a non-empty string");
        return plain("id", n.asText());
    }

    private static String required(JsonNode root, String field) throws Invalid {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) throw new Invalid("field '" + field + "' is missing");
        if (!n.isTextual() || n.asText().isBlank())
            throw new Invalid("field '" + field + "' must be a non-empty string");
        return plain(field, n.asText());
    }

    private static String optional(JsonNode root, String field) throws Invalid {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) return null;
        if (!n.isTextual()) throw new Invalid("field '" + field + "' must be a string");
        return n.asText().isBlank() ? null : plain(field, n.asText());
    }

    /**
     * Ids and names become keys, log fields and reply targets: control characters (a line break, NUL) would let one
     * forge log lines or break the store (PostgreSQL text holds no NUL), so they are refused.
     */
    private static String plain(String field, String value) throws Invalid {
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new Invalid("field '" + field + "' must not contain control characters");
            }
        }
        if (value.length() > MAX_ID_CHARS) {
            throw new Invalid("field '" + field + "' is longer than " + MAX_ID_CHARS + " characters");
        }
        return value;
    }

    private static ChatType chatType(JsonNode root) throws Invalid {
        String t = optional(root, "chat_type");
        if (t == null) return ChatType.DIRECT;
        return switch (t) {
            case "direct" -> ChatType.DIRECT;
            case "group" -> ChatType.GROUP;
            default -> throw new Invalid("field 'chat_type' must be \"direct\" or \"group\", got \"" + t + "\"");
        };
    }

    private static boolean bool(JsonNode root, String field, boolean absent) throws Invalid {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) return absent;
        if (!n.isBoolean()) throw new Invalid("field '" + field + "' must be true or false");
        return n.booleanValue();
    }

    private static Instant timestamp(JsonNode root, Supplier<Instant> now) throws Invalid {
        JsonNode n = root.get("timestamp");
        if (n == null || n.isNull()) return now.get();
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0) {
            throw new Invalid("field 'timestamp' must be epoch milliseconds (a whole number)");
        }
        return Instant.ofEpochMilli(n.asLong());
    }
}
