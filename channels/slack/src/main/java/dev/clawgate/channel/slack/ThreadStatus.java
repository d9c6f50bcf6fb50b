package dev.clawgate.channel.slack;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The typing indicator on Slack (SPEC RP-5): bots have no typing API, but a thread can show the app's status with
 * {@code assistant.threads.setStatus} ({@code channel_id}, {@code thread_ts}, {@code status}): the assistant threads of
 * an AI app's DM, and, with the {@code chat:write} scope, any thread the app replies in. A top-level message gets none
 * (no placeholder message is ever posted). Slack shows the status for up to two minutes and clears it when the app
 * replies in the thread, so it is set again at most every {@link #REFRESH} while the turn works, after each reply part,
 * and cleared ({@code status = ""}) when a turn ends with nothing posted. A conversation where Slack refuses a status
 * (an error answer) is not asked again. The calls run on the I/O executor, never on the caller's thread.
 */
final class ThreadStatus {
    private static final Logger log = LoggerFactory.getLogger(ThreadStatus.class);
    static final String THINKING = "is thinking...";
    static final long REFRESH = 30_000_000_000L;
    private static final int REMEMBERED = 1000;

    private final Executor io;
    /** {@code account:channel:thread_ts} to when its status was set (System.nanoTime). */
    private final Map<String, Long> shown = Collections.synchronizedMap(lru());
    /** {@code account:channel} where Slack refused a status. */
    private final Set<String> refused = Collections.synchronizedSet(Collections.newSetFromMap(lru()));

    ThreadStatus(Executor io) {
        this.io = io;
    }

    private static <V> Map<String, V> lru() {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > REMEMBERED;
            }
        };
    }

    /** The turn for {@code threadTs} in {@code channel} works: show the status unless it is up already. */
    void typing(SlackBot bot, String channel, String threadTs) {
        if (refused.contains(bot.account.id() + ":" + channel)) return;
        String key = key(bot, channel, threadTs);
        long now = System.nanoTime();
        Long since = shown.get(key);
        if (since != null && now - since < REFRESH) return;
        shown.put(key, now);
        io.execute(() -> set(bot, channel, threadTs, THINKING));
    }

    /** The app posted in the thread: Slack cleared the status. */
    void replied(SlackBot bot, String channel, String threadTs) {
        if (threadTs != null) shown.remove(key(bot, channel, threadTs));
    }

    /** The turn ended: a status no reply cleared is taken away. */
    void ended(SlackBot bot, String channel, String threadTs) {
        if (shown.remove(key(bot, channel, threadTs)) != null) io.execute(() -> set(bot, channel, threadTs, ""));
    }

    private void set(SlackBot bot, String channel, String threadTs, String status) {
        try {
            bot.api.call(
                    "assistant.threads.setStatus",
                    SlackApi.JSON
                            .createObjectNode()
                            .put("channel_id", channel)
                            .put("thread_ts", threadTs)
                            .put("status", status));
        } catch (SlackApiException e) {
            if (e.reach() == SlackApiException.Reach.ANSWERED && !e.rateLimited()) {
                refused.add(bot.account.id() + ":" + channel);
                log.info(
                        "slack [{}]: no thread status in {} ({}); typing is not shown there",
                        bot.account.id(),
                        channel,
                        e.error());
            } else {
                log.debug("slack [{}]: thread status not set: {}", bot.account.id(), e.getMessage());
            }
        }
    }

    private static String key(SlackBot bot, String channel, String threadTs) {
        return bot.account.id() + ":" + channel + ":" + threadTs;
    }
}
