package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.slack.SlackWorld.Post;
import java.util.ArrayList;
import java.util.List;

/**
 * The Events API payloads the fake sends, shaped as docs.slack.dev/apis/events-api ("Callback field overview") and the
 * event reference pages describe them: the {@code event_callback} wrapper, {@code message} (with {@code channel_type},
 * {@code thread_ts}, {@code files}, {@code bot_id}), {@code app_mention}, and the hidden {@code message_changed} /
 * {@code message_deleted} subtypes.
 */
final class SlackEvents {
    private final SlackWorld world;
    private final String verificationToken;

    SlackEvents(SlackWorld world, String verificationToken) {
        this.world = world;
        this.verificationToken = verificationToken;
    }

    /**
     * What Slack sends for a new message: {@code message} to an app that is in the conversation, and, when the text
     * mentions the bot outside a DM, an {@code app_mention} too — two events with their own {@code event_id} for one
     * message, same channel and ts (docs.slack.dev/reference/events/app_mention).
     */
    List<ObjectNode> forNewMessage(SlackWorld.Conversation c, Post p) {
        List<ObjectNode> out = new ArrayList<>();
        if (!c.botMember) return out;
        ObjectNode message = messageEvent(c, p);
        out.add(callback(message));
        boolean fromBot = world.bot.id().equals(p.user);
        if (!c.channel.isIm() && !fromBot && p.text != null && p.text.contains(world.bot.mention())) {
            ObjectNode mention = SlackWorld.JSON
                    .createObjectNode()
                    .put("type", "app_mention")
                    .put("user", p.user)
                    .put("text", p.text)
                    .put("ts", p.ts)
                    .put("channel", c.channel.id())
                    .put("event_ts", p.ts)
                    .put("team", world.teamId);
            if (p.clientMsgId != null) mention.put("client_msg_id", p.clientMsgId);
            if (p.threadTs != null) mention.put("thread_ts", p.threadTs);
            if (!p.fileIds.isEmpty()) mention.set("files", message.get("files"));
            out.add(callback(mention));
        }
        return out;
    }

    /** {@code message_changed}: hidden, with the new {@code message} and the {@code previous_message}. */
    ObjectNode changed(SlackWorld.Conversation c, Post p, ObjectNode previous) {
        String eventTs = world.nextTs();
        ObjectNode e = SlackWorld.JSON
                .createObjectNode()
                .put("type", "message")
                .put("subtype", "message_changed")
                .put("hidden", true)
                .put("channel", c.channel.id())
                .put("channel_type", c.channel.type())
                .put("ts", eventTs)
                .put("event_ts", eventTs);
        e.set("message", world.messageJson(p, false));
        e.set("previous_message", previous);
        return callback(e);
    }

    /** {@code message_deleted}: hidden, naming the {@code deleted_ts}. */
    ObjectNode deleted(SlackWorld.Conversation c, ObjectNode previous) {
        String eventTs = world.nextTs();
        ObjectNode e = SlackWorld.JSON
                .createObjectNode()
                .put("type", "message")
                .put("subtype", "message_deleted")
                .put("hidden", true)
                .put("channel", c.channel.id())
                .put("channel_type", c.channel.type())
                .put("ts", eventTs)
                .put("deleted_ts", previous.path("ts").asText())
                .put("event_ts", eventTs);
        if (previous.has("thread_ts"))
            e.put("thread_ts", previous.get("thread_ts").asText());
        e.set("previous_message", previous);
        return callback(e);
    }

    private ObjectNode messageEvent(SlackWorld.Conversation c, Post p) {
        ObjectNode e = world.messageJson(p, false);
        e.remove("reactions");
        e.remove("reply_count");
        e.remove("latest_reply");
        e.put("channel", c.channel.id()).put("event_ts", p.ts).put("channel_type", c.channel.type());
        if (p.threadTs != null && !p.threadTs.equals(p.ts)) {
            e.put("parent_user_id", c.posts.get(p.threadTs).user);
        }
        SlackUser author = world.users.get(p.user);
        if (author != null && author.isBot()) {
            e.putObject("bot_profile")
                    .put("id", author.botId())
                    .put("name", author.name())
                    .put("deleted", false)
                    .put("team_id", world.teamId);
        }
        return e;
    }

    /** The outer {@code event_callback}, with a fresh {@code event_id} and the bot's authorization. */
    ObjectNode callback(ObjectNode event) {
        ObjectNode cb = SlackWorld.JSON
                .createObjectNode()
                .put("token", verificationToken)
                .put("team_id", world.teamId)
                .put("api_app_id", world.appId);
        cb.set("event", event);
        cb.put("type", "event_callback")
                .put("event_id", world.id("Ev"))
                .put("event_time", System.currentTimeMillis() / 1000);
        ArrayNode auth = cb.putArray("authorizations");
        auth.addObject()
                .putNull("enterprise_id")
                .put("team_id", world.teamId)
                .put("user_id", world.bot.id())
                .put("is_bot", true)
                .put("is_enterprise_install", false);
        cb.put("is_ext_shared_channel", false).put("event_context", "4-" + world.id("EC"));
        return cb;
    }
}
