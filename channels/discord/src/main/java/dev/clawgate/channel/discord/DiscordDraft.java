package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.LiveDraftStream;
import dev.clawgate.core.outbound.LivePreview;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live preview of one reply in a Discord channel (SPEC OUT-9, {@code stream_mode = "preview"}): {@link #start} posts
 * a {@code ...} draft at once (Create Message), and later calls edit it with the text so far (Edit Message), at most
 * once per interval (Edit Message's bucket allows about 5 per 5 s; a 429 holds the preview off for its wait).
 * {@link #finish} drops pending updates and hands the draft's id to the finaliser.
 */
final class DiscordDraft extends LiveDraftStream {
    private static final Logger log = LoggerFactory.getLogger(DiscordDraft.class);
    static final String PLACEHOLDER = "...";

    private final DiscordBot bot;
    private final String channel;
    private final int limit;
    /** Written by the preview's calls (one at a time), read after {@link #finish}. */
    private volatile String id;

    DiscordDraft(DiscordBot bot, String channel, Duration interval, Scheduler scheduler, Executor io) {
        super(interval, scheduler, io);
        this.bot = bot;
        this.channel = channel;
        this.limit = bot.account.textLimit();
    }

    /** Stops updating (pending text is dropped); the draft's message id, or null when none is visible. */
    String finish() {
        stopPreview();
        return id;
    }

    String channel() {
        return channel;
    }

    @Override
    protected LivePreview.Shown show(LivePreview.Draft draft) {
        String text = draft.text().isBlank() ? PLACEHOLDER : head(draft.text().strip(), limit);
        ObjectNode body = DiscordApi.JSON.createObjectNode().put("content", text);
        body.putObject("allowed_mentions").putArray("parse");
        try {
            if (id == null) {
                JsonNode sent = bot.api.call(
                        "POST",
                        DiscordMessageAdapter.CREATE,
                        channel,
                        "/channels/" + channel + "/messages",
                        body,
                        CancelToken.none());
                id = sent.path("id").asText(null);
            } else {
                bot.api.call(
                        "PATCH",
                        DiscordMessageAdapter.EDIT,
                        channel,
                        "/channels/" + channel + "/messages/" + id,
                        body,
                        CancelToken.none());
            }
            return LivePreview.Shown.OK;
        } catch (DiscordApiException e) {
            if (e.rateLimited() && e.retryAfter() != null) return LivePreview.Shown.retryAfter(e.retryAfter());
            // a draft whose post failed is not finalised; the final reply goes out normally
            log.info("discord [{}]: live preview stopped: {}", bot.account.id(), e.getMessage());
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
