package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Slack's {@code chat.postMessage} (SPEC CH-4, OUT-7): one post, made once more only after a short 429 (Slack did not
 * post it), and a payload with media as one message (OUT-13).
 */
final class PostMessage {
    private final Duration maxInlineWait;
    private final ThreadStatus status;

    PostMessage(Duration maxInlineWait, ThreadStatus status) {
        this.maxInlineWait = maxInlineWait;
        this.status = status;
    }

    /** One post; a 429 with a short Retry-After is waited out and the post made once more (Slack did not post it). */
    JsonNode post(SlackBot bot, String channel, ObjectNode params, CancelToken cancel) throws DeliveryException {
        String key = "chat.postMessage:" + channel;
        for (int attempt = 0; ; attempt++) {
            try {
                return bot.api.call("chat.postMessage", key, params, cancel);
            } catch (SlackApiException e) {
                Duration wait = e.retryAfter();
                if (e.rateLimited() && attempt == 0 && wait != null && wait.compareTo(maxInlineWait) <= 0) {
                    try {
                        if (cancel.await(wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS))
                            cancel.throwIfCancelled();
                    } catch (InterruptedException stopped) {
                        Thread.currentThread().interrupt();
                        throw e.toDelivery("chat.postMessage");
                    }
                    continue;
                }
                throw e.toDelivery("chat.postMessage");
            }
        }
    }

    /**
     * SPEC OUT-13: a payload with media is one message: its local files uploaded with the external upload flow and
     * shared with the text as {@code initial_comment}; a URL goes as a link in the text (Slack unfurls it).
     */
    MessageReceipt sendMedia(
            SlackBot bot, OutboundTarget target, OutboundMessage message, String threadTs, CancelToken cancel)
            throws DeliveryException {
        String channel = target.replyTarget();
        StringBuilder text = new StringBuilder(message.text().isBlank() ? "" : SlackText.render(message.text()));
        List<MediaRef> local = new ArrayList<>();
        for (MediaRef m : message.media()) {
            if (m.remote())
                text.append(text.isEmpty() ? "" : "\n")
                        .append('<')
                        .append(m.location())
                        .append('>');
            else local.add(m);
        }
        List<String> ids = new ArrayList<>();
        String raw;
        if (local.isEmpty()) {
            ObjectNode params =
                    SlackApi.JSON.createObjectNode().put("channel", channel).put("text", text.toString());
            if (threadTs != null) params.put("thread_ts", threadTs);
            JsonNode posted = post(bot, channel, params, cancel);
            ids.add(channel + ":" + posted.path("ts").asText());
            raw = posted.toString();
        } else {
            for (String file : FileUpload.send(bot, channel, threadTs, text.toString(), local, cancel)) {
                ids.add(channel + ":" + file);
            }
            raw = ids.toString();
        }
        status.replied(bot, channel, threadTs);
        List<MessageReceipt.Part> parts = ids.stream()
                .map(id -> new MessageReceipt.Part(MessageReceipt.PartKind.MEDIA, id))
                .toList();
        String replyTo = threadTs != null && target.inReplyToMessageId() != null ? target.inReplyToMessageId() : null;
        return new MessageReceipt(ids.getFirst(), ids, parts, threadTs, replyTo, null, null, Instant.now(), raw);
    }
}
