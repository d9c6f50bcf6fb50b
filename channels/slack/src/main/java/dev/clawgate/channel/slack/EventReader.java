package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns an Events API {@code event_callback} (over HTTP or in a Socket Mode envelope) into an {@link InboundMessage}
 * (SPEC MD-1, CH-4).
 *
 * <ul>
 *   <li>The id is {@code <channel>:<ts>}: a message's identity in Slack. Slack's retries of one event and the
 *       {@code message} + {@code app_mention} pair it sends for one mention (two event ids) carry the same channel and
 *       {@code ts}, so the inbox keeps one of them (IN-1), in whichever order they come.
 *   <li>A message is a mention when it is an {@code app_mention}, or its text holds {@code <@BOTID>} (the id from
 *       {@code auth.test}), so either event of the pair says so; a DM is always addressed to the bot.
 *   <li>{@code thread_ts} is the thread: every message of one thread is one session.
 *   <li>Files shared with the message are downloaded with the bot token into attachments ({@link FileFetcher}, OUT-13).
 *   <li>The bot's own messages and other bots' ({@code bot_id}) are ignored (no loops); hidden subtypes (edits,
 *       deletions) and service messages (joins, topic changes) start no turn.
 * </ul>
 *
 * <p>It never throws (SPEC IN-4, CH-0): an event without the fields Slack documents is {@link Reading.Unreadable}.
 */
final class EventReader {
    static final String CHANNEL = "slack";
    /**
     * Subtypes that are a person's new message; every other subtype (edits, deletions, joins, bot_message...) is not.
     */
    private static final Set<String> NEW_MESSAGE_SUBTYPES = Set.of("file_share", "thread_broadcast", "me_message");

    private static final Pattern CONVERSATION = Pattern.compile("[CDG][A-Z0-9]{2,40}");
    private static final Pattern TS = Pattern.compile("\\d{1,12}\\.\\d{1,9}");

    /** At most this many bot users and bot messages are remembered. */
    private static final int REMEMBERED = 1000;

    private final SlackBot bot;
    /**
     * Other bots' user ids, and the ids of their messages, learnt from {@code message} events (which carry
     * {@code bot_id}): an {@code app_mention} carries no {@code bot_id}, so it is told a bot's by these.
     */
    private final java.util.Set<String> botUsers = bounded(), botMessages = bounded(), people = bounded();

    private static java.util.Set<String> bounded() {
        return java.util.Collections.synchronizedSet(
                java.util.Collections.newSetFromMap(new java.util.LinkedHashMap<>() {
                    @Override
                    protected boolean removeEldestEntry(java.util.Map.Entry<String, Boolean> eldest) {
                        return size() > REMEMBERED;
                    }
                }));
    }

    private final FileFetcher files;

    EventReader(SlackBot bot, FileFetcher files) {
        this.bot = bot;
        this.files = files;
    }

    sealed interface Reading {
        /** A message for the inbox. */
        record Message(InboundMessage message) implements Reading {}

        /** Not a message that starts a turn (an edit, the bot's own post, a join): acknowledged. */
        record Ignored(String why) implements Reading {}

        /** Not what Slack documents: kept as failed with {@code reason}, then acknowledged. */
        record Unreadable(String reason) implements Reading {}
    }

    /** The callback read; never throws. */
    Reading read(JsonNode callback) {
        try {
            return readChecked(callback);
        } catch (RuntimeException e) {
            return new Reading.Unreadable(
                    "could not read the event: " + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + bot.api.redact(e.getMessage())));
        }
    }

    private Reading readChecked(JsonNode callback) {
        if (callback == null || !callback.isObject()) return new Reading.Unreadable("the event is not a JSON object");
        String type = callback.path("type").asText("");
        if (!type.equals("event_callback")) return new Reading.Ignored("not an event_callback: " + type);
        JsonNode e = callback.path("event");
        if (!e.isObject()) return new Reading.Unreadable("event_callback without an event object");
        String eventType = e.path("type").asText("");
        boolean appMention = eventType.equals("app_mention");
        if (!appMention && !eventType.equals("message")) return new Reading.Ignored("event type " + eventType);
        String subtype = e.path("subtype").asText(null);
        if (subtype != null && !NEW_MESSAGE_SUBTYPES.contains(subtype))
            return new Reading.Ignored("message subtype " + subtype);
        if (e.path("hidden").asBoolean(false)) return new Reading.Ignored("hidden message");
        String user = e.path("user").asText(null);
        String channel = e.path("channel").asText(null);
        String ts = e.path("ts").asText(null);
        if (user != null && user.equals(bot.userId())) return new Reading.Ignored("the bot's own message");
        if (e.hasNonNull("bot_id") || e.has("bot_profile")) {
            if (user != null) botUsers.add(user);
            botMessages.add(channel + ":" + ts);
            return new Reading.Ignored("a bot's message");
        }
        if (user != null && botUsers.contains(user) || botMessages.contains(channel + ":" + ts)) {
            return new Reading.Ignored("a bot's mention");
        }
        if (appMention
                && user != null
                && !people.contains(user)
                && postedByABot(channel, ts, e.path("thread_ts").asText(null), user)) {
            return new Reading.Ignored("a bot's mention");
        }
        if (!appMention && user != null) people.add(user);
        if (channel == null || !CONVERSATION.matcher(channel).matches())
            return new Reading.Unreadable("channel is missing or not a conversation id");
        if (ts == null || !TS.matcher(ts).matches())
            return new Reading.Unreadable("ts is missing or not a Slack timestamp");
        if (user == null || user.isBlank()) return new Reading.Unreadable("a message without a user");
        String threadTs = e.path("thread_ts").asText(null);
        if (threadTs != null && !TS.matcher(threadTs).matches())
            return new Reading.Unreadable("thread_ts is not a Slack timestamp");
        String raw = e.path("text").asText("");
        String channelType = e.path("channel_type").asText(channel.startsWith("D") ? "im" : "channel");
        boolean direct = channelType.equals("im");
        boolean mentioned = direct || appMention || raw.contains("<@" + bot.userId() + ">");
        String text = SlackText.plain(raw, bot.userId(), bot.name());
        List<dev.clawgate.core.model.Attachment> attachments = new java.util.ArrayList<>();
        text = files.fetch(e, attachments, text);
        if (text.isBlank() && attachments.isEmpty()) return new Reading.Ignored("a message without text");
        InboundMessage m = new InboundMessage(
                channel + ":" + ts,
                CHANNEL,
                bot.account.id(),
                user,
                null,
                channel,
                threadTs,
                threadTs == null ? channel : channel + ":" + threadTs,
                direct ? ChatType.DIRECT : ChatType.GROUP,
                mentioned,
                instant(ts),
                text,
                List.copyOf(attachments),
                callback.toString());
        return new Reading.Message(m);
    }

    /**
     * Whether the message an {@code app_mention} names was posted by a bot: the event carries no {@code bot_id}, and
     * its {@code message} twin may come later (Slack gives no order), so the message is looked up once per unknown
     * author ({@code conversations.history}, or {@code conversations.replies} in a thread). A failed lookup counts as a
     * person.
     */
    private boolean postedByABot(String channel, String ts, String threadTs, String user) {
        try {
            com.fasterxml.jackson.databind.node.ObjectNode q =
                    SlackApi.JSON.createObjectNode().put("channel", channel);
            JsonNode page = threadTs == null || threadTs.equals(ts)
                    ? bot.api.call(
                            "conversations.history",
                            q.put("latest", ts)
                                    .put("oldest", ts)
                                    .put("inclusive", true)
                                    .put("limit", 1))
                    : bot.api.call(
                            "conversations.replies",
                            q.put("ts", threadTs)
                                    .put("latest", ts)
                                    .put("oldest", ts)
                                    .put("inclusive", true));
            for (JsonNode m : page.path("messages")) {
                if (!ts.equals(m.path("ts").asText())) continue;
                boolean isBot = m.hasNonNull("bot_id");
                (isBot ? botUsers : people).add(user);
                return isBot;
            }
        } catch (SlackApiException e) {
            org.slf4j.LoggerFactory.getLogger(EventReader.class)
                    .debug(
                            "slack [{}]: could not look up the author of {}:{}: {}",
                            bot.account.id(),
                            channel,
                            ts,
                            e.getMessage());
        }
        return false;
    }

    /** A Slack {@code ts} ({@code 1700000000.123456}) as an instant. */
    static Instant instant(String ts) {
        BigDecimal seconds = new BigDecimal(ts);
        long whole = seconds.longValue();
        long nanos =
                seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
        return Instant.ofEpochSecond(whole, nanos);
    }

    /** The message's {@code ts} in an inbound id {@code <channel>:<ts>}, or null. */
    static String ts(String inboundId) {
        if (inboundId == null) return null;
        int colon = inboundId.lastIndexOf(':');
        String ts = colon < 0 ? inboundId : inboundId.substring(colon + 1);
        return TS.matcher(ts).matches() ? ts : null;
    }

    static boolean conversationId(String s) {
        return s != null && CONVERSATION.matcher(s).matches();
    }

    static boolean timestamp(String s) {
        return s != null && TS.matcher(s).matches();
    }
}
