package dev.clawgate.channel.telegram;

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
 * A live preview of one reply in a Telegram chat (SPEC OUT-9, RP-4): {@link #start} sends a {@code ...} draft at once,
 * and later calls edit it with the text so far, at most once per interval. The reply text is plain (partial markdown
 * would be rejected as entities); streamed reasoning shows above it as an expandable quote headed "Reasoning:", which
 * the final edit replaces. Both are cut to the text limit. {@link #finish} discards pending updates and hands the
 * draft's id to the finaliser.
 */
final class LiveDraft extends LiveDraftStream {
    private static final Logger log = LoggerFactory.getLogger(LiveDraft.class);
    /** SPEC OUT-9: the draft shown before the model's first token. */
    static final String PLACEHOLDER = "...";

    static final String REASONING_HEADER = "Reasoning:";

    /** What one preview call sends: the text and its parse mode (null: plain text). */
    record Rendered(String text, String parseMode) {}

    private final Bot bot;
    private final long chatId;
    private final Long threadId;
    private final Long replyTo;
    private final int limit;
    /** Written by the preview's calls (one at a time), read after {@link #finish}. */
    private volatile Long messageId;

    LiveDraft(
            Bot bot,
            long chatId,
            Long threadId,
            Long replyTo,
            Duration interval,
            int limit,
            Scheduler scheduler,
            Executor io) {
        super(interval, scheduler, io);
        this.bot = bot;
        this.chatId = chatId;
        this.threadId = threadId;
        this.replyTo = replyTo;
        this.limit = limit;
    }

    /**
     * Stops updating (pending text is dropped) and returns the draft's message id, or null when no draft is visible.
     */
    Long finish() {
        stopPreview();
        return messageId;
    }

    @Override
    protected LivePreview.Shown show(LivePreview.Draft draft) {
        Rendered r = render(draft, limit);
        try {
            if (messageId == null) {
                ObjectNode p =
                        BotApi.JSON.createObjectNode().put("chat_id", chatId).put("text", r.text());
                if (r.parseMode() != null) p.put("parse_mode", r.parseMode());
                if (threadId != null) p.put("message_thread_id", threadId);
                if (replyTo != null)
                    p.putObject("reply_parameters").put("message_id", replyTo).put("allow_sending_without_reply", true);
                JsonNode sent = bot.api.call("sendMessage", p);
                messageId = sent.path("message_id").asLong();
            } else {
                ObjectNode p = BotApi.JSON
                        .createObjectNode()
                        .put("chat_id", chatId)
                        .put("message_id", messageId)
                        .put("text", r.text());
                if (r.parseMode() != null) p.put("parse_mode", r.parseMode());
                bot.api.call("editMessageText", p);
            }
            return LivePreview.Shown.OK;
        } catch (BotApiException e) {
            if (e.notModified()) return LivePreview.Shown.OK;
            if (e.code() == 429 && e.retryAfter() != null)
                return LivePreview.Shown.retryAfter(Duration.ofSeconds(e.retryAfter()));
            // a draft whose send failed is not finalised (its id is unknown); the final reply goes out normally
            log.info("telegram [{}]: live preview stopped: {}", bot.account.id(), e.getMessage());
            return LivePreview.Shown.STOP;
        }
    }

    /**
     * The draft as Telegram gets it: the placeholder before any text; the text alone as plain text; with reasoning,
     * HTML: an expandable quote with the latest reasoning, then the text.
     */
    static Rendered render(LivePreview.Draft draft, int limit) {
        String reasoning = draft.reasoning().strip();
        if (reasoning.isEmpty())
            return new Rendered(draft.text().isBlank() ? PLACEHOLDER : head(draft.text(), limit), null);
        String text = draft.text().strip();
        // visible units: header line, reasoning, a line break, the text
        int room = Math.max(2, limit - REASONING_HEADER.length() - 2);
        String shownText = head(text, Math.max(0, room - Math.min(reasoning.length(), room / 4)));
        String shownReasoning = tail(reasoning, Math.max(1, room - shownText.length()));
        String html = "<blockquote expandable><i>" + REASONING_HEADER + "</i>\n" + TelegramHtml.escape(shownReasoning)
                + "</blockquote>" + (shownText.isEmpty() ? "" : "\n" + TelegramHtml.escape(shownText));
        return new Rendered(html, "HTML");
    }

    /** The start of {@code s} in at most {@code max} UTF-16 units, an ellipsis marking a cut. */
    static String head(String s, int max) {
        if (s.length() <= max) return s;
        if (max <= 1) return max == 1 ? "…" : "";
        int end = max - 1;
        if (Character.isHighSurrogate(s.charAt(end - 1))) end--;
        return s.substring(0, end) + "…";
    }

    /** The end of {@code s} in at most {@code max} UTF-16 units: the latest reasoning, an ellipsis marking the cut. */
    static String tail(String s, int max) {
        if (s.length() <= max) return s;
        if (max <= 1) return "…";
        int start = s.length() - (max - 1);
        if (Character.isLowSurrogate(s.charAt(start))) start++;
        return "…" + s.substring(start);
    }
}
