package dev.clawgate.channel.slack;

import dev.clawgate.core.channel.AckReactionCalls;
import dev.clawgate.core.store.InboxState;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ack reactions (SPEC RP-5) with {@code reactions.add} / {@code reactions.remove}: {@code eyes} (👀) when a message is
 * received, then, when core settles it, {@code eyes} taken away and {@code white_check_mark} (✅) for done or
 * {@code warning} (⚠️) for failed or expired; any other final state (cancelled, dropped) only takes {@code eyes} away.
 * The calls of one message run in order on the I/O executor, never on the caller's thread.
 */
final class AckReactions {
    private static final Logger log = LoggerFactory.getLogger(AckReactions.class);
    static final String SEEN = "eyes", DONE = "white_check_mark", FAILED = "warning";

    private record Message(String account, String channel, String ts) {}

    private final AckReactionCalls<Message> calls;

    AckReactions(Executor io) {
        this.calls = new AckReactionCalls<>(io);
    }

    void received(SlackBot bot, String channel, String ts) {
        calls.inOrder(new Message(bot.account.id(), channel, ts), () -> react(bot, "reactions.add", channel, ts, SEEN));
    }

    void settled(SlackBot bot, String channel, String ts, InboxState state) {
        String outcome = emoji(state);
        calls.inOrder(new Message(bot.account.id(), channel, ts), () -> {
            react(bot, "reactions.remove", channel, ts, SEEN);
            if (outcome != null) react(bot, "reactions.add", channel, ts, outcome);
        });
    }

    /** The reaction name for a final state; null for none. */
    static String emoji(InboxState state) {
        AckReactionCalls.Outcome o = AckReactionCalls.outcome(state);
        return o == null ? null : o == AckReactionCalls.Outcome.DONE ? DONE : FAILED;
    }

    private static void react(SlackBot bot, String method, String channel, String ts, String name) {
        try {
            bot.api.call(
                    method,
                    SlackApi.JSON
                            .createObjectNode()
                            .put("channel", channel)
                            .put("timestamp", ts)
                            .put("name", name));
        } catch (SlackApiException e) {
            log.debug("slack [{}]: {} {} not done: {}", bot.account.id(), method, name, e.getMessage());
        } catch (RuntimeException e) {
            log.warn("slack [{}]: {} {} not done: {}", bot.account.id(), method, name, e.toString());
        }
    }
}
