package dev.clawgate.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One message as a channel received it (SPEC MD-1). Immutable; the raw platform payload is kept as text so it can be
 * stored as it came.
 *
 * @param id the platform's message id; null when the platform gives none (then it is not deduplicated, SPEC IN-1)
 * @param channel e.g. {@code telegram}, {@code api}, {@code terminal}
 * @param account the bot account id for channels with several, else {@code default}
 * @param sender the platform's id of the person who wrote it
 * @param replyTarget the chat or room to answer in
 * @param threadId the thread, or null
 * @param scopeId the interruption scope id (SPEC DI-4), or null
 * @param senderName a display label for the sender, or null
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
        return builder()
                .channel(channel)
                .id(id)
                .sender(sender)
                .replyTarget(sender)
                .text(text)
                .build();
    }

    public InboundMessage withText(String newText) {
        return toBuilder().text(newText).build();
    }

    /**
     * A builder with the defaults of a direct message: the default account, {@link ChatType#DIRECT}, mentioned,
     * received now; {@code channel}, {@code sender} and {@code replyTarget} must be set.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this message's fields, to change a few of them. */
    public Builder toBuilder() {
        return new Builder()
                .id(id)
                .channel(channel)
                .account(account)
                .sender(sender)
                .senderName(senderName)
                .replyTarget(replyTarget)
                .threadId(threadId)
                .scopeId(scopeId)
                .chatType(chatType)
                .mentioned(mentioned)
                .timestamp(timestamp)
                .text(text)
                .attachments(attachments)
                .rawPayload(rawPayload);
    }

    /** Names each field of an {@link InboundMessage}; {@link #build()} checks them as the record does. */
    public static final class Builder {
        private String id;
        private String channel;
        private String account = DEFAULT_ACCOUNT;
        private String sender;
        private String senderName;
        private String replyTarget;
        private String threadId;
        private String scopeId;
        private ChatType chatType = ChatType.DIRECT;
        private boolean mentioned = true;
        private Instant timestamp;
        private String text = "";
        private List<Attachment> attachments = List.of();
        private String rawPayload;

        private Builder() {}

        public Builder id(String id) {
            this.id = id;
            return this;
        }

        public Builder channel(String channel) {
            this.channel = channel;
            return this;
        }

        public Builder account(String account) {
            this.account = account;
            return this;
        }

        public Builder sender(String sender) {
            this.sender = sender;
            return this;
        }

        public Builder senderName(String senderName) {
            this.senderName = senderName;
            return this;
        }

        public Builder replyTarget(String replyTarget) {
            this.replyTarget = replyTarget;
            return this;
        }

        public Builder threadId(String threadId) {
            this.threadId = threadId;
            return this;
        }

        public Builder scopeId(String scopeId) {
            this.scopeId = scopeId;
            return this;
        }

        public Builder chatType(ChatType chatType) {
            this.chatType = chatType;
            return this;
        }

        public Builder mentioned(boolean mentioned) {
            this.mentioned = mentioned;
            return this;
        }

        public Builder timestamp(Instant timestamp) {
            this.timestamp = timestamp;
            return this;
        }

        public Builder text(String text) {
            this.text = text;
            return this;
        }

        public Builder attachments(List<Attachment> attachments) {
            this.attachments = attachments;
            return this;
        }

        public Builder rawPayload(String rawPayload) {
            this.rawPayload = rawPayload;
            return this;
        }

        /** Received now unless a timestamp was set. */
        public InboundMessage build() {
            return new InboundMessage(
                    id,
                    channel,
                    account,
                    sender,
                    senderName,
                    replyTarget,
                    threadId,
                    scopeId,
                    chatType,
                    mentioned,
                    timestamp == null ? Instant.now() : timestamp,
                    text,
                    attachments,
                    rawPayload);
        }
    }
}
