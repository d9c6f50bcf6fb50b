package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.LiveDraftStream;
import dev.clawgate.core.outbound.LivePreview;
import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live preview of one reply in a Slack conversation (SPEC OUT-9, {@code stream_mode = "preview"}): {@link #start}
 * posts a {@code ...} draft at once ({@code chat.postMessage}, in the reply's thread), and later calls edit it with the
 * text so far ({@code chat.update}), at most once per interval. The draft shows the text escaped, not rendered (half a
 * Markdown span renders wrong); the final reply's edit renders it. {@link #finish} drops pending updates and hands the
 * draft's {@code ts} to the finaliser.
 */
final class SlackDraft extends LiveDraftStream {
    private static final Logger log = LoggerFactory.getLogger(SlackDraft.class);
    static final String PLACEHOLDER = "...";

    private final SlackBot bot;
    private final String channel;
    private final String threadTs;
    private final int limit;
    /** Written by the preview's calls (one at a time), read after {@link #finish}. */
    private volatile String ts;

    SlackDraft(SlackBot bot, String channel, String threadTs, Duration interval, Scheduler scheduler, Executor io) {
        super(interval, scheduler, io);
        this.bot = bot;
        this.channel = channel;
        this.threadTs = threadTs;
        this.limit = bot.account.textLimit();
    }

    /** Stops updating (pending text is dropped); the draft's {@code ts}, or null when none is visible. */
    String finish() {
        stopPreview();
        return ts;
    }

    String channel() {
        return channel;
    }

    String threadTs() {
        return threadTs;
    }

    @Override
    protected LivePreview.Shown show(LivePreview.Draft draft) {
        String text = draft.text().isBlank()
                ? PLACEHOLDER
                : SlackText.escape(head(draft.text().strip(), limit));
        try {
            if (ts == null) {
                ObjectNode p =
                        SlackApi.JSON.createObjectNode().put("channel", channel).put("text", text);
                if (threadTs != null) p.put("thread_ts", threadTs);
                JsonNode sent = bot.api.call(
                        "chat.postMessage", "chat.postMessage:" + channel, p, dev.clawgate.core.run.CancelToken.none());
                ts = sent.path("ts").asText(null);
            } else {
                bot.api.call(
                        "chat.update",
                        SlackApi.JSON
                                .createObjectNode()
                                .put("channel", channel)
                                .put("ts", ts)
                                .put("text", text));
            }
            return LivePreview.Shown.OK;
        } catch (SlackApiException e) {
            if (e.rateLimited() && e.retryAfter() != null) return LivePreview.Shown.retryAfter(e.retryAfter());
            // a draft whose post failed is not finalised; the final reply goes out normally
            log.info("slack [{}]: live preview stopped: {}", bot.account.id(), e.getMessage());
            return LivePreview.Shown.STOP;
        }
    }

    /** The start of {@code s} in at most {@code max} UTF-16 units, an ellipsis marking a cut. */
    static String head(String s, int max) {
        if (s.length() <= max) return s;
        int end = max - 1;
        if (Character.isHighSurrogate(s.charAt(end - 1))) end--;
        return s.substring(0, end) + "…";
    }
}
