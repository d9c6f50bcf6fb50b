package dev.clawgate.testkit.slack;

import dev.clawgate.testkit.slack.SlackWorld.Conversation;
import dev.clawgate.testkit.slack.SlackWorld.Post;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code assistant.threads.setStatus} (docs.slack.dev/reference/methods/assistant.threads.setStatus): required
 * {@code channel_id}, {@code thread_ts} and {@code status}; errors {@code channel_not_found} and
 * {@code invalid_thread_ts}. The status shows until the app replies in the thread, until an empty status clears it, or
 * for two minutes. Since the {@code chat:write} scope change (changelog 2026-03-05) any thread the app is in may carry
 * one, not only an AI app's assistant threads in its DM. Called under the fake's lock.
 */
final class SlackAssistant {
    private static final long TIMEOUT_MS = 120_000;

    private record Status(String text, String setAfterTs, long setAtMs) {}

    private final SlackWorld world;
    private final SlackMethods methods;
    /** {@code channel:thread_ts} to the status last set there. */
    private final Map<String, Status> statuses = new HashMap<>();

    SlackAssistant(SlackWorld world, SlackMethods methods) {
        this.world = world;
        this.methods = methods;
    }

    com.fasterxml.jackson.databind.node.ObjectNode setStatus(SlackArgs a) throws SlackApiError {
        String channel = a.text("channel_id");
        String threadTs = a.text("thread_ts");
        String status = a.text("status");
        if (channel == null) throw missing("channel_id");
        if (threadTs == null) throw missing("thread_ts");
        if (status == null) throw missing("status");
        Conversation c = methods.visible(channel);
        if (!c.botMember) throw new SlackApiError("channel_not_found");
        Post root = c.posts.get(threadTs.strip());
        if (root == null || root.deleted || root.threadTs != null && !root.threadTs.equals(root.ts)) {
            // only a thread's root names it: a reply's ts or an unknown ts is refused
            throw new SlackApiError("invalid_thread_ts");
        }
        statuses.put(c.channel.id() + ":" + root.ts, new Status(status, world.nextTs(), System.currentTimeMillis()));
        return SlackWorld.JSON.createObjectNode();
    }

    /** The status showing now in the thread of {@code threadTs}, or null. */
    String statusOf(String channel, String threadTs) {
        Status s = statuses.get(channel + ":" + threadTs);
        if (s == null || s.text().isEmpty() || System.currentTimeMillis() - s.setAtMs() > TIMEOUT_MS) return null;
        Conversation c = world.conversations.get(channel);
        Post root = c.posts.get(threadTs);
        // the app's reply in the thread clears it
        for (String reply : root.replies) {
            Post p = c.posts.get(reply);
            if (world.bot.id().equals(p.user) && reply.compareTo(s.setAfterTs()) > 0) return null;
        }
        return s.text();
    }

    private static SlackApiError missing(String field) {
        return new SlackApiError("invalid_arguments", List.of("[ERROR] missing required field: " + field));
    }
}
