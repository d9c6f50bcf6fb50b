package dev.clawgate.testkit.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fake Discord: users, the bot and its application, guilds, channels, DMs, threads, messages, reactions and
 * attachments, and the JSON objects the API shows them as (developers/resources/user, channel, message). Not
 * thread-safe: {@link FakeDiscord} holds its lock around every use.
 */
final class DiscordWorld {
    static final ObjectMapper JSON = new ObjectMapper();
    /** The first second of 2015, where Discord snowflakes count from (developers/reference, "Snowflakes"). */
    private static final long DISCORD_EPOCH = 1_420_070_400_000L;

    private static final Pattern MENTION = Pattern.compile("<@!?(\\d+)>");

    record Attachment(String id, String filename, String contentType, byte[] bytes) {}

    static final class Chan {
        final DiscordChannel channel;
        final Map<String, Msg> messages = new LinkedHashMap<>();
        boolean accessible = true;

        Chan(DiscordChannel channel) {
            this.channel = channel;
        }
    }

    static final class Msg {
        final String id;
        final Chan chan;
        final DiscordUser author;
        final Instant timestamp = Instant.now();
        final String nonce;
        final String referenceId;
        final List<Attachment> attachments = new ArrayList<>();
        final Map<String, Set<String>> reactions = new LinkedHashMap<>();
        final List<String> reactionLog = new ArrayList<>();
        final Set<String> mentions = new LinkedHashSet<>();
        String content;
        Instant edited;
        int edits;
        boolean deleted;

        Msg(String id, Chan chan, DiscordUser author, String content, String nonce, String referenceId) {
            this.id = id;
            this.chan = chan;
            this.author = author;
            this.content = content;
            this.nonce = nonce;
            this.referenceId = referenceId;
        }
    }

    final DiscordUser bot;
    final String applicationId;
    int applicationFlags = GatewayIntents.FLAG_GATEWAY_MESSAGE_CONTENT_LIMITED;
    final Map<String, DiscordUser> users = new LinkedHashMap<>();
    final Map<String, DiscordGuild> guilds = new LinkedHashMap<>();
    final Map<String, Chan> channels = new LinkedHashMap<>();
    final Map<String, Msg> messages = new LinkedHashMap<>();
    final Map<String, Attachment> attachments = new LinkedHashMap<>();
    final Set<String> dmsClosedBy = new LinkedHashSet<>();
    private long lastSnowflake;
    String cdnBase = "";

    DiscordWorld(String botName) {
        applicationId = snowflake();
        bot = new DiscordUser(snowflake(), botName, true);
        users.put(bot.id(), bot);
    }

    /** A new id: milliseconds since the Discord epoch shifted left 22 bits, increasing even within a millisecond. */
    String snowflake() {
        long id = Math.max((System.currentTimeMillis() - DISCORD_EPOCH) << 22, lastSnowflake + 1);
        lastSnowflake = id;
        return Long.toString(id);
    }

    DiscordUser user(String name, boolean isBot) {
        DiscordUser u = new DiscordUser(snowflake(), name, isBot);
        users.put(u.id(), u);
        return u;
    }

    DiscordChannel addChannel(
            int type, String guildId, String name, String parentId, DiscordUser recipient, String id) {
        DiscordChannel c = new DiscordChannel(id == null ? snowflake() : id, type, guildId, name, parentId, recipient);
        channels.put(c.id(), new Chan(c));
        return c;
    }

    /** The one DM channel between the bot and {@code person}, opened on first use. */
    DiscordChannel dmWith(DiscordUser person) {
        for (Chan c : channels.values()) {
            if (c.channel.isDm() && c.channel.recipient().id().equals(person.id())) return c.channel;
        }
        return addChannel(DiscordChannel.DM, null, null, null, person, null);
    }

    Chan chan(String id) throws DiscordApiError {
        Chan c = channels.get(id);
        if (c == null) throw DiscordApiError.unknownChannel();
        if (!c.accessible) throw DiscordApiError.missingAccess();
        return c;
    }

    Msg msg(Chan c, String id) throws DiscordApiError {
        Msg m = c.messages.get(id);
        if (m == null || m.deleted) throw DiscordApiError.unknownMessage();
        return m;
    }

    Msg add(Chan c, DiscordUser author, String content, String nonce, String referenceId) {
        Msg m = new Msg(snowflake(), c, author, content, nonce, referenceId);
        Matcher mm = MENTION.matcher(content);
        while (mm.find()) if (users.containsKey(mm.group(1))) m.mentions.add(mm.group(1));
        c.messages.put(m.id, m);
        messages.put(m.id, m);
        return m;
    }

    Attachment attach(Msg m, String filename, String contentType, byte[] bytes) {
        Attachment a = new Attachment(snowflake(), filename, contentType, bytes);
        m.attachments.add(a);
        attachments.put(a.id(), a);
        return a;
    }

    /**
     * Whether an app without the message content intent sees this message's content: only in DMs, its own messages, and
     * messages that mention it (developers/events/gateway, "Message Content Intent").
     */
    boolean contentVisibleWithoutIntent(Msg m) {
        return m.chan.channel.guildId() == null || m.author.id().equals(bot.id()) || m.mentions.contains(bot.id());
    }

    boolean contentGranted() {
        return (applicationFlags
                        & (GatewayIntents.FLAG_GATEWAY_MESSAGE_CONTENT
                                | GatewayIntents.FLAG_GATEWAY_MESSAGE_CONTENT_LIMITED))
                != 0;
    }

    /** READY's payload (gateway-events, "Ready"): the bot, its guilds unavailable, the session, its resume URL. */
    ObjectNode readyJson(String sessionId, String resumeUrl, JsonNode shard) {
        ObjectNode d = JSON.createObjectNode().put("v", 10);
        d.set("user", userJson(bot).put("verified", true).put("mfa_enabled", false));
        ArrayNode gs = d.putArray("guilds");
        guilds.values().forEach(g -> gs.addObject().put("id", g.id()).put("unavailable", true));
        d.put("session_id", sessionId).put("session_type", "normal").put("resume_gateway_url", resumeUrl);
        if (shard != null) d.set("shard", shard);
        d.putObject("application").put("id", applicationId).put("flags", applicationFlags);
        return d;
    }

    ObjectNode userJson(DiscordUser u) {
        ObjectNode n = JSON.createObjectNode()
                .put("id", u.id())
                .put("username", u.username())
                .put("discriminator", "0")
                .put("global_name", u.username())
                .putNull("avatar");
        if (u.bot()) n.put("bot", true);
        return n;
    }

    ObjectNode channelJson(DiscordChannel c) {
        ObjectNode n = JSON.createObjectNode().put("id", c.id()).put("type", c.type());
        Chan chan = channels.get(c.id());
        String last = chan == null || chan.messages.isEmpty()
                ? null
                : List.copyOf(chan.messages.keySet()).getLast();
        n.put("last_message_id", last);
        if (c.isDm()) {
            n.putArray("recipients").add(userJson(c.recipient()));
            return n;
        }
        n.put("guild_id", c.guildId())
                .put("name", c.name())
                .put("parent_id", c.parentId())
                .put("nsfw", false)
                .put("rate_limit_per_user", 0);
        if (c.isThread()) {
            n.put("owner_id", bot.id())
                    .put("message_count", chan == null ? 0 : chan.messages.size())
                    .put("member_count", 1);
            n.putObject("thread_metadata")
                    .put("archived", false)
                    .put("auto_archive_duration", 1440)
                    .put("archive_timestamp", Instant.now().toString())
                    .put("locked", false);
        } else {
            n.put("position", 0).putArray("permission_overwrites");
        }
        return n;
    }

    /** The message object (developers/resources/message, "Message Object"); content emptied when {@code strip}. */
    ObjectNode messageJson(Msg m, boolean strip) {
        ObjectNode n = JSON.createObjectNode()
                .put("id", m.id)
                .put("type", m.referenceId == null ? 0 : 19)
                .put("content", strip ? "" : m.content)
                .put("channel_id", m.chan.channel.id());
        n.set("author", userJson(m.author));
        ArrayNode files = n.putArray("attachments");
        if (!strip) for (Attachment a : m.attachments) files.add(attachmentJson(m, a));
        n.putArray("embeds");
        ArrayNode mentions = n.putArray("mentions");
        m.mentions.forEach(id -> mentions.add(userJson(users.get(id))));
        n.putArray("mention_roles");
        n.put("pinned", false)
                .put("mention_everyone", false)
                .put("tts", false)
                .put("timestamp", m.timestamp.toString())
                .put("edited_timestamp", m.edited == null ? null : m.edited.toString())
                .put("flags", 0);
        n.putArray("components");
        if (m.nonce != null) n.put("nonce", m.nonce);
        if (m.referenceId != null) {
            ObjectNode ref = n.putObject("message_reference")
                    .put("type", 0)
                    .put("message_id", m.referenceId)
                    .put("channel_id", m.chan.channel.id());
            if (m.chan.channel.guildId() != null) ref.put("guild_id", m.chan.channel.guildId());
            Msg target = messages.get(m.referenceId);
            if (target != null && !target.deleted) n.set("referenced_message", messageJson(target, strip));
            else n.putNull("referenced_message");
        }
        if (!m.reactions.isEmpty()) {
            ArrayNode rs = n.putArray("reactions");
            m.reactions.forEach((emoji, who) -> rs.addObject()
                    .put("count", who.size())
                    .put("me", who.contains(bot.id()))
                    .putObject("emoji")
                    .putNull("id")
                    .put("name", emoji));
        }
        return n;
    }

    /** The MESSAGE_CREATE / MESSAGE_UPDATE payload: the message, plus guild_id and the author's member in guilds. */
    ObjectNode messageEvent(Msg m, boolean strip) {
        ObjectNode n = messageJson(m, strip);
        String guildId = m.chan.channel.guildId();
        if (guildId != null) {
            n.put("guild_id", guildId);
            n.putObject("member")
                    .put("joined_at", m.timestamp.toString())
                    .put("deaf", false)
                    .put("mute", false)
                    .put("flags", 0)
                    .putArray("roles");
        }
        return n;
    }

    private ObjectNode attachmentJson(Msg m, Attachment a) {
        // CDN links are signed and expire (ex, is, hm); the fake serves them whatever the query says
        String expires = HexFormat.of().toHexDigits((int) (System.currentTimeMillis() / 1000 + 86_400));
        String url = cdnBase + "/attachments/" + m.chan.channel.id() + "/" + a.id() + "/" + a.filename() + "?ex="
                + expires + "&is=00&hm=00";
        return JSON.createObjectNode()
                .put("id", a.id())
                .put("filename", a.filename())
                .put("size", a.bytes().length)
                .put("url", url)
                .put("proxy_url", url)
                .put("content_type", a.contentType());
    }

    /** GUILD_CREATE: the guild with its channels and threads, sent after READY to a session with GUILDS. */
    ObjectNode guildCreate(DiscordGuild g) {
        ObjectNode n = JSON.createObjectNode()
                .put("id", g.id())
                .put("name", g.name())
                .put("unavailable", false)
                .put("large", false)
                .put("joined_at", Instant.now().toString());
        ArrayNode chans = n.putArray("channels");
        ArrayNode threads = n.putArray("threads");
        int members = 1;
        for (Chan c : channels.values()) {
            if (!g.id().equals(c.channel.guildId())) continue;
            (c.channel.isThread() ? threads : chans).add(channelJson(c.channel));
        }
        n.put("member_count", members);
        n.putArray("members").addObject().set("user", userJson(bot));
        n.putArray("roles");
        n.putArray("emojis");
        n.putArray("features");
        return n;
    }

    DiscordMessage snapshot(Msg m) {
        return new DiscordMessage(
                m.id,
                m.chan.channel.id(),
                m.author.id(),
                m.content,
                m.nonce,
                m.referenceId,
                m.attachments.stream().map(Attachment::filename).toList(),
                m.reactionLog,
                m.edits,
                m.deleted);
    }
}
