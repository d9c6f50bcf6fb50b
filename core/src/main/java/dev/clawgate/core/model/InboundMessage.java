package dev.clawgate.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One message as a channel received it (SPEC MD-1). Immutable; the raw platform payload is
 * kept as text so it can be stored as it came.
 *
 * @param id          the platform's message id; null when the platform gives none (then it is
 *                    not deduplicated, SPEC IN-1)
 * @param channel     e.g. {@code telegram}, {@code api}, {@code terminal}
 * @param account     the bot account id for channels with several, else {@code default}
 * @param sender      the platform's id of the person who wrote it
 * @param replyTarget the chat or room to answer in
 * @param threadId    the thread, or null
 * @param scopeId     the interruption scope id (SPEC DI-4), or null
 * @param senderName  a display label for the sender, or null
 */
public record InboundMessage(
        String id,
        String channel,
        String account,
        String sender,
        String senderName,
        String replyTarget,
        String threadId,
        String scopeId,
        ChatType chatType,
        boolean mentioned,
        Instant timestamp,
        String text,
        List<Attachment> attachments,
        String rawPayload) {

    public static final String DEFAULT_ACCOUNT = "default";

    public InboundMessage {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(replyTarget, "replyTarget");
        Objects.requireNonNull(chatType, "chatType");
        account = account == null || account.isBlank() ? DEFAULT_ACCOUNT : account;
        timestamp = timestamp == null ? Instant.now() : timestamp;
        text = text == null ? "" : text;
        attachments = attachments == null ? List.of() : List.copyOf(attachments);
    }

    /** A direct text message: the common case for the terminal, the API and tests. */
    public static InboundMessage direct(String channel, String id, String sender, String text) {
        return new InboundMessage(id, channel, DEFAULT_ACCOUNT, sender, null, sender, null, null,
                ChatType.DIRECT, true, Instant.now(), text, List.of(), null);
    }

    public InboundMessage withText(String newText) {
        return new InboundMessage(id, channel, account, sender, senderName, replyTarget, threadId,
                scopeId, chatType, mentioned, timestamp, newText, attachments, rawPayload);
    }
}
