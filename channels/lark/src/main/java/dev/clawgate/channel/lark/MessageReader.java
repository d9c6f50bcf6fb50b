package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads an {@code im.message.receive_v1} event (SPEC CH-11, MD-1): {@code event.message} with its {@code message_id}
 * (the inbox's id, IN-1), {@code chat_id} (where the reply goes), {@code chat_type} ({@code p2p}: a direct chat,
 * {@code group}), {@code message_type} and {@code content} (a JSON string): {@code text} ({@code @_user_N} placeholders
 * replaced by the names in {@code mentions}), {@code post} (rich text flattened: its title, paragraphs, links as
 * {@code text (url)}, images downloaded), {@code image} (downloaded). A group message is addressed to the bot when
 * {@code mentions} holds the bot's open id (require_mention). Never throws.
 */
final class MessageReader {
    /** What one event is to the receiver. */
    sealed interface Reading {
        record Message(InboundMessage message) implements Reading {}

        record Ignored(String why) implements Reading {}

        record Unreadable(String ref, String reason, String raw) implements Reading {}
    }

    private final MediaStore media;
    private final Supplier<String> botOpenId;

    MessageReader(MediaStore media, Supplier<String> botOpenId) {
        this.media = media;
        this.botOpenId = botOpenId;
    }

    Reading read(JsonNode root) {
        JsonNode m = root.path("event").path("message");
        try {
            return readChecked(root, m);
        } catch (RuntimeException | IOException e) {
            return new Reading.Unreadable(
                    m.path("message_id").asText("no-id"),
                    "could not read the message: " + e.getClass().getSimpleName(),
                    root.toString());
        }
    }

    private Reading readChecked(JsonNode root, JsonNode m) throws IOException {
        String id = m.path("message_id").asText("");
        if (id.isEmpty() || id.length() > 128) return unreadable(root, "message_id is missing");
        JsonNode sender = root.path("event").path("sender");
        if (!"user".equals(sender.path("sender_type").asText("user"))) return new Reading.Ignored("not a user");
        String from = sender.path("sender_id").path("open_id").asText("");
        String chat = m.path("chat_id").asText("");
        if (from.isEmpty() || chat.isEmpty()) return unreadable(root, "sender open_id or chat_id is missing");
        String chatType = m.path("chat_type").asText("");
        boolean group = !chatType.equals("p2p");
        JsonNode content = LarkApi.JSON.readTree(m.path("content").asText("{}"));
        List<Attachment> attachments = new ArrayList<>();
        String type = m.path("message_type").asText("");
        String text = switch (type) {
            case "text" -> mentions(content.path("text").asText(""), m.path("mentions"));
            case "post" -> mentions(post(id, content, attachments), m.path("mentions"));
            case "image" -> image(id, content.path("image_key").asText(""), attachments, "");
            default -> "[a " + type + " message, which the gateway cannot read]";
        };
        boolean mentioned = !group || mentionsBot(m.path("mentions"));
        long millis = m.path("create_time").asLong(System.currentTimeMillis());
        InboundMessage message = new InboundMessage(
                id,
                LarkChannel.NAME,
                InboundMessage.DEFAULT_ACCOUNT,
                from,
                null,
                chat,
                null,
                null,
                group ? ChatType.GROUP : ChatType.DIRECT,
                mentioned,
                Instant.ofEpochMilli(millis),
                text.strip(),
                attachments,
                root.toString());
        return new Reading.Message(message);
    }

    private boolean mentionsBot(JsonNode mentions) {
        if (mentions.isEmpty()) return false;
        String bot = botOpenId.get();
        for (JsonNode men : mentions) {
            if (bot != null && bot.equals(men.path("id").path("open_id").asText())) return true;
        }
        return false;
    }

    /** {@code @_user_1} becomes {@code @name}; the bot's own mention is dropped. */
    private String mentions(String text, JsonNode mentions) {
        if (mentions.isEmpty()) return text;
        String bot = botOpenId.get();
        for (JsonNode men : mentions) {
            String key = men.path("key").asText("");
            if (key.isEmpty()) continue;
            boolean self =
                    bot != null && bot.equals(men.path("id").path("open_id").asText());
            text = text.replace(key, self ? "" : "@" + men.path("name").asText("someone"));
        }
        return text.replaceAll("^\\s+", "").replaceAll(" {2,}", " ");
    }

    /** A post's title and paragraphs as plain lines; a link keeps its URL, an image is downloaded. */
    private String post(String messageId, JsonNode content, List<Attachment> attachments) {
        JsonNode body = content.has("content") ? content : first(content);
        StringBuilder out = new StringBuilder();
        String title = body.path("title").asText("");
        if (!title.isBlank()) out.append(title).append('\n');
        for (JsonNode paragraph : body.path("content")) {
            StringBuilder line = new StringBuilder();
            for (JsonNode el : paragraph) {
                String t = el.path("text").asText("");
                switch (el.path("tag").asText()) {
                    case "a" ->
                        line.append(
                                t.isEmpty()
                                        ? el.path("href").asText()
                                        : t + " (" + el.path("href").asText() + ")");
                    case "at" ->
                        line.append(
                                el.has("user_name")
                                        ? "@" + el.path("user_name").asText()
                                        : el.path("user_id").asText().startsWith("@_user_")
                                                ? el.path("user_id").asText()
                                                : "");
                    case "img" ->
                        line.append(
                                image(messageId, el.path("image_key").asText(""), attachments, "")
                                                .isEmpty()
                                        ? ""
                                        : "[image not downloaded]");
                    case "emotion" ->
                        line.append(':').append(el.path("emoji_type").asText()).append(':');
                    default -> line.append(t);
                }
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    private static JsonNode first(JsonNode localized) {
        var it = localized.elements();
        return it.hasNext() ? it.next() : localized;
    }

    /** Downloads the image into the media store; "" when it worked, else a note. */
    private String image(String messageId, String key, List<Attachment> into, String text) {
        Attachment a = media.image(messageId, key);
        if (a == null) return text + "[an image that could not be downloaded]";
        into.add(a);
        return text;
    }

    private static Reading unreadable(JsonNode root, String reason) {
        return new Reading.Unreadable(
                root.path("event").path("message").path("message_id").asText("no-id"), reason, root.toString());
    }
}
