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
 * Turns a Telegram update into an {@link InboundMessage} (SPEC MD-1, CH-3): the id is {@code <chat_id>:<message_id>},
 * unique per bot, so a redelivered update dedupes (IN-1); a forum topic is the thread only when
 * {@code is_topic_message} (a reply's thread of replies is not); in groups the bot is mentioned by {@code @username} or
 * by a reply to one of its messages.
 *
 * <p>It never throws (SPEC IN-4, CH-0: a poison message never blocks a stream): an update whose ids, date, text or
 * thread are not what the Bot API documents is {@link Reading.Unreadable}, with the reason; a broken optional part (an
 * entity out of range, a reply without a sender) is skipped.
 */
final class UpdateReader {
    static final String CHANNEL = "telegram";
    /** The last second of year 9999: a later {@code date} is not a time Telegram sends. */
    static final long MAX_DATE = 253_402_300_799L;

    private final Bot bot;
    private final MediaFetcher media;

    UpdateReader(Bot bot, MediaFetcher media) {
        this.bot = bot;
        this.media = media;
    }

    /** What an update turned out to be. */
    sealed interface Reading {
        /** A message for the inbox. */
        record Message(InboundMessage message) implements Reading {}

        /** Not something the gateway handles (an edit, a service message, a channel post): acknowledged. */
        record Ignored() implements Reading {}

        /** Not what the Bot API documents: kept as failed with {@code reason}, then acknowledged. */
        record Unreadable(String reason) implements Reading {}
    }

    /** {@code update_id} when it is a whole number, else null. */
    static Long updateId(JsonNode update) {
        JsonNode id = update == null ? null : update.get("update_id");
        return id != null && id.isIntegralNumber() && id.canConvertToLong() ? id.asLong() : null;
    }

    /** The update read; never throws. */
    Reading read(JsonNode update) {
        try {
            return readChecked(update);
        } catch (RuntimeException e) {
            // a shape no rule above foresaw: the update is kept and skipped, never retried for ever
            return new Reading.Unreadable(
                    "could not read the update: " + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + bot.api.redact(e.getMessage())));
        }
    }

    private Reading readChecked(JsonNode update) {
        if (update == null || !update.isObject()) return new Reading.Unreadable("the update is not a JSON object");
        if (updateId(update) == null) return new Reading.Unreadable("update_id is missing or not a whole number");
        JsonNode m = update.path("message");
        if (!m.isObject() || !m.path("from").isObject()) return new Reading.Ignored();
        Long messageId = whole(m, "message_id");
        Long chatId = whole(m.path("chat"), "id");
        Long fromId = whole(m.path("from"), "id");
        Long date = whole(m, "date");
        if (messageId == null || messageId <= 0) return unreadable("message.message_id", "a positive whole number");
        if (chatId == null) return unreadable("message.chat.id", "a whole number");
        if (fromId == null) return unreadable("message.from.id", "a whole number");
        if (date == null || date < 0 || date > MAX_DATE) return unreadable("message.date", "seconds since 1970");
        String thread = null;
        if (m.path("is_topic_message").asBoolean(false) && m.has("message_thread_id")) {
            Long t = whole(m, "message_thread_id");
            if (t == null) return new Reading.Unreadable("message.message_thread_id is not a whole number");
            thread = t.toString();
        }
        for (String field : List.of("text", "caption")) {
            if (m.has(field) && !m.get(field).isTextual()) {
                return new Reading.Unreadable("message." + field + " is not a string");
            }
        }
        String text =
                m.has("text") ? m.path("text").asText() : m.path("caption").asText("");
        List<Attachment> attachments = new ArrayList<>();
        text = media.fetch(m, attachments, text);
        if (text.isBlank() && attachments.isEmpty()) return new Reading.Ignored();
        JsonNode chat = m.path("chat");
        boolean direct = "private".equals(chat.path("type").asText());
        JsonNode from = m.path("from");
        ChatType type = direct ? ChatType.DIRECT : ChatType.GROUP;
        return new Reading.Message(new InboundMessage(
                chatId + ":" + messageId,
                CHANNEL,
                bot.account.id(),
                fromId.toString(),
                senderName(from),
                chatId.toString(),
                thread,
                null,
                type,
                direct || mentions(m),
                Instant.ofEpochSecond(date),
                text,
                attachments,
                update.toString()));
    }

    private static Reading unreadable(String field, String what) {
        return new Reading.Unreadable(field + " is missing or not " + what);
    }

    /** {@code node.field} as a long when it is a whole number that fits, else null. */
    private static Long whole(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isIntegralNumber() && v.canConvertToLong() ? v.asLong() : null;
    }

    private boolean mentions(JsonNode m) {
        JsonNode reply = m.path("reply_to_message");
        // in a forum every message outside General answers the topic's service message; only a real reply counts
        if (reply.isObject() && reply.path("from").path("id").asLong() == bot.id() && !reply.has("forum_topic_created"))
            return true;
        String handle = "@" + bot.username().toLowerCase(Locale.ROOT);
        for (String field : List.of("entities", "caption_entities")) {
            String text = m.path(field.equals("entities") ? "text" : "caption").asText("");
            if (!m.path(field).isArray()) continue;
            for (JsonNode e : m.path(field)) {
                String type = e.path("type").asText();
                if (type.equals("text_mention") && e.path("user").path("id").asLong() == bot.id()) return true;
                if (!type.equals("mention") && !type.equals("bot_command")) continue;
                // long arithmetic: offset + length of two large ints must not wrap round into range (poison did)
                long start = e.path("offset").asLong(-1),
                        end = start + e.path("length").asLong(-1);
                if (start < 0 || end < start || end > text.length()) continue;
                String span = text.substring((int) start, (int) end).toLowerCase(Locale.ROOT);
                if (type.equals("mention") ? span.equals(handle) : span.endsWith(handle)) return true;
            }
        }
        return false;
    }

    private static String senderName(JsonNode from) {
        String first = from.path("first_name").asText("");
        String last = from.path("last_name").asText("");
        String name = oneLine((first + " " + last).strip());
        if (!name.isEmpty()) return name;
        return from.path("username").isTextual()
                ? "@" + oneLine(from.path("username").asText())
                : null;
    }

    /** A display name without control characters: it labels messages in the prompt and the logs. */
    private static String oneLine(String s) {
        return s.replaceAll("\\p{Cntrl}", " ").strip();
    }
}
