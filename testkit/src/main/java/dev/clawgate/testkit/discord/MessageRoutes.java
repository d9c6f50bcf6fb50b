package dev.clawgate.testkit.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.discord.DiscordRest.Reply;
import dev.clawgate.testkit.discord.DiscordRest.Request;
import dev.clawgate.testkit.discord.DiscordWorld.Chan;
import dev.clawgate.testkit.discord.DiscordWorld.Msg;
import dev.clawgate.testkit.internal.Multipart;
import io.javalin.config.JavalinConfig;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Channels, messages, reactions, typing and threads, each as its developers/resources/message or channel section says
 * (Create/Edit/Delete Message, Create Reaction, Delete Own Reaction, Trigger Typing Indicator, Start Thread from
 * Message, Start Thread without Message, Create DM), with the Gateway dispatch each one fires. Called under the fake's
 * lock.
 */
final class MessageRoutes {
    static final int CONTENT_LIMIT = 2000;
    static final int NONCE_LIMIT = 25;

    private record NonceUse(String messageId, long at) {}

    private final DiscordWorld world;
    private final DiscordGateway gateway;
    private final Map<String, NonceUse> nonces = new HashMap<>();
    final List<String> typing = new ArrayList<>();
    /**
     * How long a nonce is checked with {@code enforce_nonce}: the reference says only "the past few minutes" (Create
     * Message; discord-api-docs#6647: "a short duration"). Two minutes by default, so an app counting on longer is
     * caught here.
     */
    Duration nonceWindow = Duration.ofMinutes(2);
    /**
     * The most one uploaded file may hold: Discord's default for a bot outside boosted guilds (Create Message,
     * "Uploading Files"); a larger one is refused with 413 and code 40005, and nothing is created.
     */
    long fileLimit = 10L * 1024 * 1024;

    MessageRoutes(DiscordWorld world, DiscordGateway gateway) {
        this.world = world;
        this.gateway = gateway;
    }

    void mount(JavalinConfig config, DiscordRest rest) {
        rest.mount(
                config,
                DiscordRoutes.GET_CHANNEL,
                "channel",
                r -> Reply.ok(world.channelJson(world.chan(r.path("channel")).channel)));
        rest.mount(config, DiscordRoutes.CREATE_DM, null, this::createDm);
        rest.mount(config, DiscordRoutes.GET_MESSAGES, "channel", this::history);
        rest.mount(config, DiscordRoutes.GET_MESSAGE, "channel", r -> {
            Msg m = world.msg(world.chan(r.path("channel")), r.path("message"));
            return Reply.ok(world.messageJson(m, restHidesContent(m)));
        });
        rest.mount(config, DiscordRoutes.CREATE_MESSAGE, "channel", this::create);
        rest.mount(config, DiscordRoutes.EDIT_MESSAGE, "channel", this::edit);
        rest.mount(config, DiscordRoutes.DELETE_MESSAGE, "channel", this::delete);
        rest.mount(config, DiscordRoutes.CREATE_REACTION, "channel", r -> react(r, true));
        rest.mount(config, DiscordRoutes.DELETE_REACTION, "channel", r -> react(r, false));
        rest.mount(config, DiscordRoutes.TYPING, "channel", this::typing);
        rest.mount(config, DiscordRoutes.START_THREAD_FROM_MESSAGE, "channel", this::threadFromMessage);
        rest.mount(config, DiscordRoutes.START_THREAD, "channel", this::thread);
    }

    private Reply create(Request r) throws DiscordApiError {
        Chan c = world.chan(r.path("channel"));
        DiscordChannel ch = c.channel;
        if (ch.isDm() && world.dmsClosedBy.contains(ch.recipient().id())) {
            throw new DiscordApiError(403, 50007, "Cannot send messages to this user");
        }
        ObjectNode p = r.json();
        String content = p.path("content").isTextual() ? p.get("content").asText() : "";
        if (content.length() > CONTENT_LIMIT) throw tooLong();
        String nonce = p.hasNonNull("nonce") ? p.get("nonce").asText() : null;
        if (nonce != null && nonce.length() > NONCE_LIMIT) {
            throw DiscordApiError.invalidField("nonce", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.");
        }
        long now = System.nanoTime();
        if (nonce != null && p.path("enforce_nonce").asBoolean(false)) {
            NonceUse used = nonces.get(nonce);
            if (used != null && now - used.at() < nonceWindow.toNanos()) {
                // the earlier message is returned, never a new one, even when it has been deleted since
                Msg earlier = world.messages.get(used.messageId());
                if (earlier == null || earlier.deleted) throw DiscordApiError.unknownMessage();
                return Reply.ok(world.messageJson(earlier, false));
            }
        }
        checkFiles(p, r.files());
        boolean hasOther = !r.files().isEmpty()
                || nonEmpty(p, "embeds")
                || nonEmpty(p, "sticker_ids")
                || nonEmpty(p, "components")
                || p.hasNonNull("poll");
        if (content.isBlank() && !hasOther) throw new DiscordApiError(400, 50006, "Cannot send an empty message");
        String referenceId = reference(c, p.path("message_reference"));
        Msg m = world.add(c, world.bot, content, nonce, referenceId);
        for (Multipart.Part f : r.files()) world.attach(m, fileName(p, f), f.contentType(), f.bytes());
        if (nonce != null) {
            if (nonces.size() > 10_000) nonces.values().removeIf(u -> now - u.at() >= nonceWindow.toNanos());
            nonces.put(nonce, new NonceUse(m.id, now));
        }
        created(m);
        return Reply.ok(world.messageJson(m, false));
    }

    /**
     * Every upload within the size limit; every {@code attachments} entry of a new message names an uploaded
     * {@code files[n]} part by its {@code id} (there is no earlier attachment to keep).
     */
    private void checkFiles(ObjectNode p, List<Multipart.Part> files) throws DiscordApiError {
        for (Multipart.Part f : files) {
            if (f.bytes().length > fileLimit) throw new DiscordApiError(413, 40005, "Request entity too large");
        }
        for (JsonNode a : p.path("attachments")) {
            String id = a.path("id").asText("");
            if (files.stream().noneMatch(f -> f.name().equals("files[" + id + "]"))) {
                throw DiscordApiError.invalidField("attachments", "ATTACHMENT_NOT_FOUND", "Unknown attachment " + id);
            }
        }
    }

    /** A reply's target must exist unless fail_if_not_exists is false (message, "Message Reference Structure"). */
    private String reference(Chan c, JsonNode ref) throws DiscordApiError {
        if (!ref.isObject() || !ref.hasNonNull("message_id")) return null;
        String id = ref.get("message_id").asText();
        Msg target = world.messages.get(id);
        String channel = ref.hasNonNull("channel_id") ? ref.get("channel_id").asText() : c.channel.id();
        if (target != null && !target.deleted && target.chan.channel.id().equals(channel)) return id;
        if (!ref.path("fail_if_not_exists").asBoolean(true)) return null;
        throw DiscordApiError.invalidField("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message");
    }

    private static String fileName(ObjectNode p, Multipart.Part f) {
        String n = f.name().substring("files[".length(), f.name().length() - 1);
        for (JsonNode a : p.path("attachments")) {
            if (a.path("id").asText().equals(n) && a.hasNonNull("filename"))
                return a.get("filename").asText();
        }
        return f.fileName();
    }

    private Reply edit(Request r) throws DiscordApiError {
        Chan c = world.chan(r.path("channel"));
        Msg m = world.msg(c, r.path("message"));
        if (!m.author.id().equals(world.bot.id())) {
            throw new DiscordApiError(403, 50005, "Cannot edit a message authored by another user");
        }
        JsonNode content = r.json().get("content");
        if (content != null && content.isTextual()) {
            if (content.asText().length() > CONTENT_LIMIT) throw tooLong();
            m.content = content.asText();
        }
        m.edited = java.time.Instant.now();
        m.edits++;
        updated(m);
        return Reply.ok(world.messageJson(m, false));
    }

    private Reply delete(Request r) throws DiscordApiError {
        Chan c = world.chan(r.path("channel"));
        Msg m = world.msg(c, r.path("message"));
        if (!m.author.id().equals(world.bot.id())) throw new DiscordApiError(403, 50013, "Missing Permissions");
        m.deleted = true;
        deleted(m);
        return Reply.noContent();
    }

    /**
     * The emoji must be URL-encoded: a Unicode emoji, or {@code name:id} for a custom one (the fake has none); anything
     * else, a name like {@code thumbsup} included, is 10014 Unknown Emoji.
     */
    private Reply react(Request r, boolean add) throws DiscordApiError {
        Chan c = world.chan(r.path("channel"));
        Msg m = world.msg(c, r.path("message"));
        String raw = r.ctx().path();
        String segment = raw.substring(raw.indexOf("/reactions/") + "/reactions/".length(), raw.lastIndexOf("/@me"));
        String emoji = URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        boolean unicode = emoji.chars().anyMatch(ch -> ch >= 0x80)
                && emoji.chars().noneMatch(ch -> ch < 0x80 && Character.isLetter(ch));
        if (emoji.contains(":") || !unicode) {
            throw new DiscordApiError(400, 10014, "Unknown Emoji");
        }
        String who = world.bot.id();
        ObjectNode d = DiscordWorld.JSON
                .createObjectNode()
                .put("user_id", who)
                .put("channel_id", c.channel.id())
                .put("message_id", m.id);
        if (c.channel.guildId() != null) d.put("guild_id", c.channel.guildId());
        d.putObject("emoji").putNull("id").put("name", emoji);
        int intent = c.channel.guildId() == null
                ? GatewayIntents.DIRECT_MESSAGE_REACTIONS
                : GatewayIntents.GUILD_MESSAGE_REACTIONS;
        if (add
                && m.reactions
                        .computeIfAbsent(emoji, e -> new LinkedHashSet<>())
                        .add(who)) {
            m.reactionLog.add(emoji + ":" + who);
            gateway.dispatch("MESSAGE_REACTION_ADD", intent, true, strip -> d);
        } else if (!add
                && m.reactions.containsKey(emoji)
                && m.reactions.get(emoji).remove(who)) {
            if (m.reactions.get(emoji).isEmpty()) m.reactions.remove(emoji);
            m.reactionLog.remove(emoji + ":" + who);
            gateway.dispatch("MESSAGE_REACTION_REMOVE", intent, true, strip -> d);
        }
        return Reply.noContent();
    }

    private Reply typing(Request r) throws DiscordApiError {
        Chan c = world.chan(r.path("channel"));
        typing.add(c.channel.id());
        ObjectNode d = DiscordWorld.JSON
                .createObjectNode()
                .put("channel_id", c.channel.id())
                .put("user_id", world.bot.id())
                .put("timestamp", System.currentTimeMillis() / 1000);
        if (c.channel.guildId() != null) d.put("guild_id", c.channel.guildId());
        int intent = c.channel.guildId() == null
                ? GatewayIntents.DIRECT_MESSAGE_TYPING
                : GatewayIntents.GUILD_MESSAGE_TYPING;
        gateway.dispatch("TYPING_START", intent, true, strip -> d);
        return Reply.noContent();
    }

    private Reply threadFromMessage(Request r) throws DiscordApiError {
        Chan c = world.chan(r.path("channel"));
        Msg m = world.msg(c, r.path("message"));
        String name = threadName(r.json());
        if (c.channel.type() != DiscordChannel.GUILD_TEXT) throw wrongChannelType();
        if (world.channels.containsKey(m.id)) {
            throw new DiscordApiError(400, 160004, "A thread has already been created for this message");
        }
        return new Reply(201, startThread(c, DiscordChannel.PUBLIC_THREAD, name, m.id));
    }

    private Reply thread(Request r) throws DiscordApiError {
        Chan c = world.chan(r.path("channel"));
        String name = threadName(r.json());
        if (c.channel.type() != DiscordChannel.GUILD_TEXT) throw wrongChannelType();
        int type = r.json().path("type").asInt(DiscordChannel.PRIVATE_THREAD);
        if (type != DiscordChannel.PUBLIC_THREAD && type != DiscordChannel.PRIVATE_THREAD) {
            throw DiscordApiError.invalidField("type", "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.");
        }
        return new Reply(201, startThread(c, type, name, null));
    }

    ObjectNode startThread(Chan parent, int type, String name, String id) {
        DiscordChannel t = world.addChannel(type, parent.channel.guildId(), name, parent.channel.id(), null, id);
        gateway.dispatch(
                "THREAD_CREATE",
                GatewayIntents.GUILDS,
                true,
                strip -> world.channelJson(t).put("newly_created", true));
        return world.channelJson(t);
    }

    private static DiscordApiError wrongChannelType() {
        return new DiscordApiError(400, 50024, "Cannot execute action on this channel type");
    }

    private static String threadName(ObjectNode p) throws DiscordApiError {
        String name = p.path("name").asText("");
        if (name.isEmpty() || name.length() > 100) {
            throw DiscordApiError.invalidField("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.");
        }
        return name;
    }

    private Reply createDm(Request r) throws DiscordApiError {
        DiscordUser u = world.users.get(r.json().path("recipient_id").asText());
        if (u == null) throw new DiscordApiError(404, 10013, "Unknown User");
        return Reply.ok(world.channelJson(world.dmWith(u)));
    }

    /** Get Channel Messages: newest first, {@code limit} 1..100 (default 50), {@code before} / {@code after}. */
    private Reply history(Request r) throws DiscordApiError {
        Chan c = world.chan(r.path("channel"));
        long before = snowflake(r.ctx().queryParam("before"), Long.MAX_VALUE);
        long after = snowflake(r.ctx().queryParam("after"), -1);
        int limit = Math.max(1, Math.min(100, parseInt(r.ctx().queryParam("limit"), 50)));
        List<Msg> all = new ArrayList<>(c.messages.values());
        ArrayNode out = DiscordWorld.JSON.createArrayNode();
        for (int i = all.size() - 1; i >= 0 && out.size() < limit; i--) {
            Msg m = all.get(i);
            long id = Long.parseLong(m.id);
            if (m.deleted || id >= before || id <= after) continue;
            out.add(world.messageJson(m, restHidesContent(m)));
        }
        return Reply.ok(out);
    }

    /** Over HTTP the app's flags decide, not the session's intents (gateway, "HTTP Restrictions"). */
    private boolean restHidesContent(Msg m) {
        return !world.contentGranted() && !world.contentVisibleWithoutIntent(m);
    }

    void created(Msg m) {
        gateway.dispatch(
                "MESSAGE_CREATE",
                messageIntent(m.chan),
                world.contentVisibleWithoutIntent(m),
                strip -> world.messageEvent(m, strip));
    }

    void deleted(Msg m) {
        ObjectNode d = DiscordWorld.JSON.createObjectNode().put("id", m.id).put("channel_id", m.chan.channel.id());
        if (m.chan.channel.guildId() != null) d.put("guild_id", m.chan.channel.guildId());
        gateway.dispatch("MESSAGE_DELETE", messageIntent(m.chan), true, strip -> d);
    }

    void updated(Msg m) {
        gateway.dispatch(
                "MESSAGE_UPDATE",
                messageIntent(m.chan),
                world.contentVisibleWithoutIntent(m),
                strip -> world.messageEvent(m, strip));
    }

    private static int messageIntent(Chan c) {
        return c.channel.guildId() == null ? GatewayIntents.DIRECT_MESSAGES : GatewayIntents.GUILD_MESSAGES;
    }

    /**
     * "Message contents (up to 2000 characters)"; counted here in UTF-16 units, which is never fewer than Discord's
     * count, so text the fake takes fits on Discord too.
     */
    private static DiscordApiError tooLong() {
        return DiscordApiError.invalidField("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.");
    }

    private static boolean nonEmpty(ObjectNode p, String field) {
        return p.path(field).isArray() && !p.get(field).isEmpty();
    }

    private static long snowflake(String v, long dflt) throws DiscordApiError {
        if (v == null) return dflt;
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw DiscordApiError.invalidField("before", "NUMBER_TYPE_COERCE", "Value \"" + v + "\" is not snowflake.");
        }
    }

    private static int parseInt(String v, int dflt) throws DiscordApiError {
        if (v == null) return dflt;
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw DiscordApiError.invalidField("limit", "NUMBER_TYPE_COERCE", "Value \"" + v + "\" is not int.");
        }
    }
}
