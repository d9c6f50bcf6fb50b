package dev.clawgate.channel.lark;

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
 * A live preview of one reply in a Lark chat (SPEC OUT-9, {@code stream_mode = "preview"}): {@link #start} sends a
 * {@code ...} draft at once (a {@code post} with one {@code md} element, as a reply when the reply answers a message),
 * and later calls edit it with the text so far ({@code PUT im/v1/messages/{id}}), at most once per interval. A message
 * can be edited 20 times: the preview stops after {@link #PREVIEW_EDITS}, keeping one edit for the final reply.
 * {@link #finish} drops pending updates and hands the draft's message id to the finaliser.
 */
final class LarkDraft extends LiveDraftStream {
    private static final Logger log = LoggerFactory.getLogger(LarkDraft.class);
    static final String PLACEHOLDER = "...";
    /** The platform's 20 edits per message, less the final edit. */
    static final int PREVIEW_EDITS = 19;

    private final LarkApi api;
    private final String chat;
    private final String replyTo;
    private final int limit;
    private volatile String messageId;
    private int edits;

    LarkDraft(
            LarkApi api, String chat, String replyTo, int limit, Duration interval, Scheduler scheduler, Executor io) {
        super(interval, scheduler, io);
        this.api = api;
        this.chat = chat;
        this.replyTo = replyTo;
        this.limit = limit;
    }

    /** Stops updating (pending text is dropped); the draft's message id, or null when none is visible. */
    String finish() {
        stopPreview();
        return messageId;
    }

    static ObjectNode post(String text) {
        ObjectNode content = LarkApi.JSON.createObjectNode();
        content.putObject("zh_cn")
                .putArray("content")
                .addArray()
                .addObject()
                .put("tag", "md")
                .put("text", text);
        return LarkApi.JSON.createObjectNode().put("msg_type", "post").put("content", content.toString());
    }

    @Override
    protected LivePreview.Shown show(LivePreview.Draft draft) {
        String text = draft.text().isBlank() ? PLACEHOLDER : head(draft.text().strip(), limit);
        try {
            if (messageId == null) {
                ObjectNode body = post(text);
                String path;
                if (replyTo != null) {
                    path = "im/v1/messages/" + replyTo + "/reply";
                } else {
                    body.put("receive_id", chat);
                    path = "im/v1/messages?receive_id_type=chat_id";
                }
                messageId = api.call("POST", path, body, CancelToken.none())
                        .path("data")
                        .path("message_id")
                        .asText(null);
                return messageId == null ? LivePreview.Shown.STOP : LivePreview.Shown.OK;
            }
            if (edits >= PREVIEW_EDITS) return LivePreview.Shown.STOP;
            edits++;
            api.call("PUT", "im/v1/messages/" + messageId, post(text), CancelToken.none());
            return LivePreview.Shown.OK;
        } catch (LarkApiException e) {
            if (e.rateLimited()) return LivePreview.Shown.retryAfter(Duration.ofSeconds(1));
            // a draft whose send failed is not finalised; the final reply goes out normally
            log.info("lark: live preview stopped: {}", e.getMessage());
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
