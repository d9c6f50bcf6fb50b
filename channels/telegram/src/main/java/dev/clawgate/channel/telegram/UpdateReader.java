package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns a Telegram update into an {@link InboundMessage} (SPEC MD-1, CH-3): the id is
 * {@code <chat_id>:<message_id>}, unique per bot, so a redelivered update dedupes (IN-1); a
 * forum topic is the thread only when {@code is_topic_message} (a reply's thread of replies is
 * not); in groups the bot is mentioned by {@code @username} or by a reply to one of its messages.
 */
final class UpdateReader {
    static final String CHANNEL = "telegram";

    private final Bot bot;
    private final MediaFetcher media;

    UpdateReader(Bot bot, MediaFetcher media) {
        this.bot = bot;
        this.media = media;
    }

    /** The message of {@code update}, or null for an update we do not handle (edits, service messages). */
    InboundMessage read(JsonNode update) {
        JsonNode m = update.path("message");
        if (!m.isObject() || !m.path("from").isObject()) return null;
        String text = m.has("text") ? m.path("text").asText() : m.path("caption").asText("");
        List<Attachment> attachments = new ArrayList<>();
        text = media.fetch(m, attachments, text);
        if (text.isBlank() && attachments.isEmpty()) return null;
        JsonNode chat = m.path("chat");
        long chatId = chat.path("id").asLong();
        boolean direct = "private".equals(chat.path("type").asText());
        String thread = m.path("is_topic_message").asBoolean(false) && m.has("message_thread_id")
                ? m.path("message_thread_id").asText() : null;
        JsonNode from = m.path("from");
        return new InboundMessage(chatId + ":" + m.path("message_id").asLong(), CHANNEL, bot.account.id(), from.path("id").asText(),
                senderName(from), Long.toString(chatId), thread, null, direct ? ChatType.DIRECT : ChatType.GROUP,
                direct || mentions(m), Instant.ofEpochSecond(m.path("date").asLong()), text, attachments, update.toString());
    }

    private boolean mentions(JsonNode m) {
        JsonNode reply = m.path("reply_to_message");
        // in a forum every message outside General answers the topic's service message; only a real reply counts
        if (reply.isObject() && reply.path("from").path("id").asLong() == bot.id() && !reply.has("forum_topic_created")) return true;
        String handle = "@" + bot.username().toLowerCase(Locale.ROOT);
        for (String field : List.of("entities", "caption_entities")) {
            String text = m.path(field.equals("entities") ? "text" : "caption").asText("");
            for (JsonNode e : m.path(field)) {
                String type = e.path("type").asText();
                if (type.equals("text_mention") && e.path("user").path("id").asLong() == bot.id()) return true;
                if (!type.equals("mention") && !type.equals("bot_command")) continue;
                int start = e.path("offset").asInt(), end = start + e.path("length").asInt();
                if (start < 0 || end > text.length()) continue;
                String span = text.substring(start, end).toLowerCase(Locale.ROOT);
                if (type.equals("mention") ? span.equals(handle) : span.endsWith(handle)) return true;
            }
        }
        return false;
    }

    private static String senderName(JsonNode from) {
        String first = from.path("first_name").asText("");
        String last = from.path("last_name").asText("");
        String name = (first + " " + last).strip();
        if (!name.isEmpty()) return name;
        return from.has("username") ? "@" + from.path("username").asText() : null;
    }
}
