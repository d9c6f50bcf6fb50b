package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.slack.SlackWorld.Conversation;
import dev.clawgate.testkit.slack.SlackWorld.Post;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The Web API methods on messages and conversations, each following its reference page on
 * docs.slack.dev/reference/methods/&lt;name&gt; (arguments, response, errors). Called under the fake's lock.
 */
final class SlackMethods {
    /** Longer text is truncated, with a warning (api.slack.com/changelog/2018-04-truncating-really-long-messages). */
    static final int TEXT_TRUNCATED_AT = 40_000;
    /** Emoji names as reactions.add takes them: no colons, optionally a skin tone. */
    private static final String CURSOR_PREFIX = "next_ts:";

    private static final Pattern REACTION = Pattern.compile("[a-z0-9_+'\\-]+(::skin-tone-[2-6])?");

    /** What one call produced besides its result: events to publish once the lock is released, warnings. */
    static final class Effects {
        final List<ObjectNode> events = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final List<String> messages = new ArrayList<>();
    }

    private final SlackWorld world;
    private final SlackEvents events;

    SlackMethods(SlackWorld world, SlackEvents events) {
        this.world = world;
        this.events = events;
    }

    /** auth.test: who the token is (the adapter learns the bot's user id here). */
    ObjectNode authTest() {
        return SlackWorld.JSON
                .createObjectNode()
                .put("url", "https://" + world.teamDomain + ".slack.com/")
                .put("team", "Clawgate Fake")
                .put("user", world.bot.name())
                .put("team_id", world.teamId)
                .put("user_id", world.bot.id())
                .put("bot_id", world.bot.botId())
                .put("is_enterprise_install", false);
    }

    /** A conversation the bot may post in: {@code is_archived}, or {@code not_in_channel} for a public one it left. */
    Conversation writable(String channelId) throws SlackApiError {
        Conversation c = visible(channelId);
        if (c.archived) throw new SlackApiError("is_archived");
        if (!c.botMember) throw new SlackApiError("not_in_channel");
        return c;
    }

    /** Private conversations the bot is not in do not exist for it: {@code channel_not_found}. */
    Conversation visible(String channelId) throws SlackApiError {
        Conversation c = world.conversation(channelId);
        if (!c.botMember && !"channel".equals(c.channel.type())) throw new SlackApiError("channel_not_found");
        return c;
    }

    ObjectNode postMessage(SlackArgs a, Effects fx) throws SlackApiError {
        Conversation c = writable(a.text("channel"));
        String text = a.text("text");
        JsonNode blocks = blocks(a);
        if ((text == null || text.isEmpty()) && blocks == null) throw new SlackApiError("no_text");
        JsonNode metadata = metadata(a);
        if (text != null && text.length() > TEXT_TRUNCATED_AT) {
            text = text.substring(0, TEXT_TRUNCATED_AT);
            fx.warnings.add("message_truncated");
            fx.messages.add("[WARN] Your message was truncated but still posted. "
                    + "The `text` field accepts up to 40,000 characters.");
        }
        String threadTs = a.text("thread_ts");
        String thread = threadTs == null || threadTs.isBlank() ? null : threadTs.strip();
        Post p = world.add(c, world.bot, text == null ? "" : text, thread);
        p.blocks = blocks;
        p.metadata = metadata;
        fx.events.addAll(events.forNewMessage(c, p));
        ObjectNode r = SlackWorld.JSON
                .createObjectNode()
                .put("channel", c.channel.id())
                .put("ts", p.ts);
        r.set("message", world.messageJson(p, true));
        return r;
    }

    ObjectNode update(SlackArgs a, Effects fx) throws SlackApiError {
        Conversation c = visible(a.text("channel"));
        Post p = world.post(c, a.text("ts"));
        if (!world.bot.id().equals(p.user)) throw new SlackApiError("cant_update_message");
        String text = a.text("text");
        JsonNode blocks = blocks(a);
        if ((text == null || text.isEmpty()) && blocks == null) throw new SlackApiError("no_text");
        if (text != null && text.length() > TEXT_TRUNCATED_AT) throw new SlackApiError("msg_too_long");
        JsonNode metadata = metadata(a);
        ObjectNode previous = world.messageJson(p, false);
        if (text != null) p.text = text;
        if (blocks != null) p.blocks = blocks;
        if (metadata != null) p.metadata = metadata;
        p.editedTs = world.nextTs();
        p.edits++;
        if (c.botMember) fx.events.add(events.changed(c, p, previous));
        ObjectNode r = SlackWorld.JSON
                .createObjectNode()
                .put("channel", c.channel.id())
                .put("ts", p.ts)
                .put("text", p.text);
        r.set("message", world.messageJson(p, true));
        return r;
    }

    ObjectNode delete(SlackArgs a, Effects fx) throws SlackApiError {
        Conversation c = visible(a.text("channel"));
        Post p = world.post(c, a.text("ts"));
        if (!world.bot.id().equals(p.user)) throw new SlackApiError("cant_delete_message");
        ObjectNode previous = world.messageJson(p, false);
        p.deleted = true;
        if (c.botMember) fx.events.add(events.deleted(c, previous));
        return SlackWorld.JSON.createObjectNode().put("channel", c.channel.id()).put("ts", p.ts);
    }

    ObjectNode react(SlackArgs a, boolean add) throws SlackApiError {
        String name = a.text("name");
        if (name == null || a.text("channel") == null || a.text("timestamp") == null) {
            throw new SlackApiError("no_item_specified");
        }
        if (!REACTION.matcher(name).matches()) throw new SlackApiError("invalid_name");
        Conversation c = visible(a.text("channel"));
        Post p = world.post(c, a.text("timestamp"));
        if (add && !world.react(p, name, world.bot.id())) throw new SlackApiError("already_reacted");
        if (!add && !world.unreact(p, name, world.bot.id())) throw new SlackApiError("no_reaction");
        return SlackWorld.JSON.createObjectNode();
    }

    /** conversations.history: top-level messages, newest first, paged by {@code response_metadata.next_cursor}. */
    ObjectNode history(SlackArgs a) throws SlackApiError {
        Conversation c = visible(a.text("channel"));
        if (!c.botMember) throw new SlackApiError("not_in_channel");
        String latest = a.text("latest");
        String oldest = a.text("oldest");
        boolean inclusive = a.flag("inclusive");
        String after = cursor(a.text("cursor"));
        List<Post> matching = new ArrayList<>();
        for (Post p : c.posts.descendingMap().values()) {
            if (p.deleted || (p.threadTs != null && !p.threadTs.equals(p.ts))) continue;
            if (after != null && p.ts.compareTo(after) >= 0) continue;
            if (latest != null && (inclusive ? p.ts.compareTo(latest) > 0 : p.ts.compareTo(latest) >= 0)) continue;
            if (oldest != null && (inclusive ? p.ts.compareTo(oldest) < 0 : p.ts.compareTo(oldest) <= 0)) continue;
            matching.add(p);
        }
        return page(matching, limit(a), a.flag("include_all_metadata"));
    }

    /** conversations.replies: the thread's root first, then its replies, oldest first. */
    ObjectNode replies(SlackArgs a) throws SlackApiError {
        Conversation c = visible(a.text("channel"));
        String ts = a.text("ts");
        Post named = ts == null ? null : c.posts.get(ts.strip());
        if (named == null || named.deleted) throw new SlackApiError("thread_not_found");
        Post root = named.threadTs == null ? named : c.posts.get(named.threadTs);
        String after = cursor(a.text("cursor"));
        List<Post> thread = new ArrayList<>();
        thread.add(root);
        for (String r : root.replies) if (!c.posts.get(r).deleted) thread.add(c.posts.get(r));
        if (after != null) thread.removeIf(p -> p.ts.compareTo(after) <= 0);
        return page(thread, limit(a), a.flag("include_all_metadata"));
    }

    ObjectNode info(SlackArgs a) throws SlackApiError {
        Conversation c = visible(a.text("channel"));
        SlackChannel ch = c.channel;
        ObjectNode n = SlackWorld.JSON
                .createObjectNode()
                .put("id", ch.id())
                .put("name", ch.name())
                .put("is_channel", "channel".equals(ch.type()) || "group".equals(ch.type()))
                .put("is_group", false)
                .put("is_im", ch.isIm())
                .put("is_mpim", "mpim".equals(ch.type()))
                .put("is_private", !"channel".equals(ch.type()))
                .put("is_archived", c.archived)
                .put("is_member", c.botMember);
        if (ch.peer() != null) n.put("user", ch.peer().id());
        ObjectNode r = SlackWorld.JSON.createObjectNode();
        r.set("channel", n);
        return r;
    }

    private ObjectNode page(List<Post> posts, int limit, boolean metadata) {
        ObjectNode r = SlackWorld.JSON.createObjectNode();
        ArrayNode out = r.putArray("messages");
        for (int i = 0; i < Math.min(limit, posts.size()); i++) out.add(world.messageJson(posts.get(i), metadata));
        boolean more = posts.size() > limit;
        r.put("has_more", more).put("pin_count", 0);
        r.putObject("response_metadata").put("next_cursor", more ? encodeCursor(posts.get(limit - 1).ts) : "");
        return r;
    }

    private static int limit(SlackArgs a) throws SlackApiError {
        Integer l = a.integer("limit");
        return l == null || l <= 0 ? 100 : Math.min(l, 999);
    }

    /** Cursors look like Slack's: base64 of {@code next_ts:<ts>}, opaque to the client. */
    private static String encodeCursor(String ts) {
        return Base64.getEncoder().encodeToString((CURSOR_PREFIX + ts).getBytes(StandardCharsets.UTF_8));
    }

    private static String cursor(String cursor) throws SlackApiError {
        if (cursor == null || cursor.isBlank()) return null;
        try {
            String decoded = new String(Base64.getDecoder().decode(cursor.strip()), StandardCharsets.UTF_8);
            if (!decoded.startsWith(CURSOR_PREFIX)) throw new SlackApiError("invalid_cursor");
            return decoded.substring(CURSOR_PREFIX.length());
        } catch (IllegalArgumentException e) {
            throw new SlackApiError("invalid_cursor");
        }
    }

    private static JsonNode blocks(SlackArgs a) throws SlackApiError {
        JsonNode blocks = a.json("blocks", "invalid_blocks_format");
        if (blocks == null) return null;
        if (!blocks.isArray()) throw new SlackApiError("invalid_blocks_format");
        for (JsonNode b : blocks) if (!b.path("type").isTextual()) throw new SlackApiError("invalid_blocks");
        return blocks;
    }

    /** Message metadata (docs.slack.dev/messaging/message-metadata): event_type and an object event_payload. */
    private static JsonNode metadata(SlackArgs a) throws SlackApiError {
        JsonNode m = a.json("metadata", "invalid_metadata_format");
        if (m == null) return null;
        if (!m.isObject()
                || !m.path("event_type").isTextual()
                || !m.path("event_payload").isObject()) {
            throw new SlackApiError("invalid_metadata_schema");
        }
        return m;
    }
}
