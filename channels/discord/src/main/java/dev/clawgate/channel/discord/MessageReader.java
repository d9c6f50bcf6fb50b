package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a {@code MESSAGE_CREATE} dispatch into an {@link InboundMessage} (SPEC MD-1, CH-5;
 * developers/resources/message).
 *
 * <ul>
 *   <li>The id is the message's snowflake, unique across Discord: a message replayed after a Resume is the same record
 *       (IN-1).
 *   <li>A DM (no {@code guild_id}) is direct and always addressed to the bot; in a guild the bot is mentioned when
 *       {@code mentions} names it or the content holds {@code <@id>} / {@code <@!id>} (a reply that pings the bot names
 *       it in {@code mentions}).
 *   <li>A thread is a channel of its own: its messages are answered in it ({@code replyTarget} is the thread's id) and
 *       it is the message's thread; threads are learnt from GUILD_CREATE and THREAD_CREATE.
 *   <li>The bot's own messages, other bots' and webhooks', and system messages (joins, pins, thread starters) are
 *       ignored; a message whose content the bot cannot see (no Message Content intent, not a mention) and which has no
 *       attachment starts nothing.
 * </ul>
 *
 * It never throws (SPEC IN-4, CH-0): a dispatch without the fields Discord documents is {@link Reading.Unreadable}.
 */
final class MessageReader {
    static final String CHANNEL = "discord";
    private static final Pattern SNOWFLAKE = Pattern.compile("\\d{1,20}");
    private static final Pattern USER_MENTION = Pattern.compile("<@!?(\\d{1,20})>");

    private final DiscordBot bot;
    /** Thread channel id to its parent channel id. */
    private final Map<String, String> threads = new ConcurrentHashMap<>();

    MessageReader(DiscordBot bot) {
        this.bot = bot;
    }

    sealed interface Reading {
        record Message(InboundMessage message) implements Reading {}

        record Ignored(String why) implements Reading {}

        record Unreadable(String reason) implements Reading {}
    }

    /** Learns the threads a GUILD_CREATE lists. */
    void guildCreated(JsonNode guild) {
        for (JsonNode t : guild.path("threads")) threadCreated(t);
    }

    void threadCreated(JsonNode channel) {
        int type = channel.path("type").asInt(-1);
        if ((type == 10 || type == 11 || type == 12) && channel.hasNonNull("id")) {
            threads.put(channel.get("id").asText(), channel.path("parent_id").asText(""));
        }
    }

    Reading read(JsonNode d) {
        try {
            return readChecked(d);
        } catch (RuntimeException e) {
            return new Reading.Unreadable(
                    "could not read the message: " + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + bot.api.redact(e.getMessage())));
        }
    }

    private Reading readChecked(JsonNode d) {
        if (d == null || !d.isObject()) return new Reading.Unreadable("MESSAGE_CREATE without a message object");
        String id = d.path("id").asText(null);
        String channel = d.path("channel_id").asText(null);
        JsonNode author = d.path("author");
        if (id == null || !SNOWFLAKE.matcher(id).matches())
            return new Reading.Unreadable("id is missing or not a snowflake");
        if (channel == null || !SNOWFLAKE.matcher(channel).matches())
            return new Reading.Unreadable("channel_id is missing or not a snowflake");
        String sender = author.path("id").asText(null);
        if (sender == null || !SNOWFLAKE.matcher(sender).matches())
            return new Reading.Unreadable("a message without an author id");
        if (sender.equals(bot.userId())) return new Reading.Ignored("the bot's own message");
        if (author.path("bot").asBoolean(false) || d.hasNonNull("webhook_id"))
            return new Reading.Ignored("a bot's message");
        int type = d.path("type").asInt(0);
        if (type != 0 && type != 19) return new Reading.Ignored("message type " + type);
        String guild = d.path("guild_id").asText(null);
        boolean direct = guild == null;
        String content = d.path("content").asText("");
        boolean mentioned = direct || mentions(d, content);
        String text = plain(content, d.path("mentions"));
        StringBuilder files = new StringBuilder();
        for (JsonNode a : d.path("attachments")) {
            files.append(files.isEmpty() ? "" : ", ").append(a.path("filename").asText("a file"));
        }
        if (!files.isEmpty()) text = (text.isBlank() ? "" : text + "\n") + "[attached " + files + "]";
        if (text.isBlank())
            return new Reading.Ignored("a message without content (no Message Content intent, or only a sticker)");
        String thread = threads.containsKey(channel) ? channel : null;
        String name = author.path("global_name").isTextual()
                ? author.get("global_name").asText()
                : author.path("username").asText(null);
        InboundMessage m = new InboundMessage(
                id,
                CHANNEL,
                bot.account.id(),
                sender,
                name,
                channel,
                thread,
                channel,
                direct ? ChatType.DIRECT : ChatType.GROUP,
                mentioned,
                instant(d.path("timestamp").asText(null)),
                text,
                List.of(),
                d.toString());
        return new Reading.Message(m);
    }

    private boolean mentions(JsonNode d, String content) {
        String me = bot.userId();
        if (me == null) return false;
        for (JsonNode u : d.path("mentions")) if (me.equals(u.path("id").asText())) return true;
        return content.contains("<@" + me + ">") || content.contains("<@!" + me + ">");
    }

    /** Content with user mentions shown as {@code @name} (the bot's own as its name). */
    private String plain(String content, JsonNode mentions) {
        Matcher m = USER_MENTION.matcher(content);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String who = m.group(1);
            String name = who.equals(bot.userId()) ? bot.name() : null;
            for (JsonNode u : mentions) {
                if (name == null && who.equals(u.path("id").asText()))
                    name = u.path("username").asText(null);
            }
            m.appendReplacement(out, Matcher.quoteReplacement("@" + (name == null ? who : name)));
        }
        m.appendTail(out);
        return out.toString().strip();
    }

    private static Instant instant(String timestamp) {
        if (timestamp == null) return Instant.now();
        try {
            return java.time.OffsetDateTime.parse(timestamp).toInstant();
        } catch (DateTimeParseException e) {
            return Instant.now();
        }
    }

    static boolean snowflake(String s) {
        return s != null && SNOWFLAKE.matcher(s).matches();
    }
}
