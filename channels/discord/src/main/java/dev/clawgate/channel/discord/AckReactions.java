package dev.clawgate.channel.discord;

import dev.clawgate.core.channel.AckReactionCalls;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ack reactions (SPEC RP-5) with Create Reaction / Delete Own Reaction: 👀 when a message is received, then, when core
 * settles it, 👀 taken away and ✅ for done or ⚠️ for failed or expired; any other final state only takes 👀 away. The
 * emoji is URL-encoded in the path, as Discord requires. The calls of one message run in order on the I/O executor,
 * never on the caller's thread.
 */
final class AckReactions {
    private static final Logger log = LoggerFactory.getLogger(AckReactions.class);
    static final String SEEN = "\uD83D\uDC40", DONE = "\u2705", FAILED = "\u26A0\uFE0F";
    private static final String ROUTE = "/channels/{channel.id}/messages/{message.id}/reactions/{emoji}/@me";

    private record Message(String account, String channel, String id) {}

    private final AckReactionCalls<Message> calls;

    AckReactions(Executor io) {
        this.calls = new AckReactionCalls<>(io);
    }

    void received(DiscordBot bot, String channel, String id) {
        calls.inOrder(new Message(bot.account.id(), channel, id), () -> react(bot, "PUT", channel, id, SEEN));
    }

    void settled(DiscordBot bot, String channel, String id, InboxState state) {
        String outcome = emoji(state);
        calls.inOrder(new Message(bot.account.id(), channel, id), () -> {
            react(bot, "DELETE", channel, id, SEEN);
            if (outcome != null) react(bot, "PUT", channel, id, outcome);
        });
    }

    static String emoji(InboxState state) {
        AckReactionCalls.Outcome o = AckReactionCalls.outcome(state);
        return o == null ? null : o == AckReactionCalls.Outcome.DONE ? DONE : FAILED;
    }

    private static void react(DiscordBot bot, String verb, String channel, String id, String emoji) {
        String path = "/channels/" + channel + "/messages/" + id + "/reactions/"
                + URLEncoder.encode(emoji, StandardCharsets.UTF_8) + "/@me";
        try {
            bot.api.call(verb, verb + " " + ROUTE, channel, path, null, CancelToken.none());
        } catch (DiscordApiException e) {
            log.debug(
                    "discord [{}]: reaction {} not {}: {}",
                    bot.account.id(),
                    emoji,
                    verb.equals("PUT") ? "added" : "removed",
                    e.getMessage());
        } catch (RuntimeException e) {
            log.warn("discord [{}]: reaction {} failed: {}", bot.account.id(), emoji, e.toString());
        }
    }
}
