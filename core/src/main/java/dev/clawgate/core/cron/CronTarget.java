package dev.clawgate.core.cron;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;
import java.util.Objects;

/**
 * Where a cron job's turn runs and its reply goes: the conversation that scheduled it, with the sender who did (SPEC
 * AG-5: scheduled agent turns delivered to a channel target).
 */
public record CronTarget(
        String channel,
        String account,
        ChatType chatType,
        String replyTarget,
        String threadId,
        String sender,
        String senderName) {
    public CronTarget {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(chatType, "chatType");
        Objects.requireNonNull(replyTarget, "replyTarget");
        Objects.requireNonNull(sender, "sender");
        account = account == null || account.isBlank() ? InboundMessage.DEFAULT_ACCOUNT : account;
    }

    /** The target of the conversation {@code message} came from. */
    public static CronTarget of(InboundMessage message) {
        return new CronTarget(
                message.channel(),
                message.account(),
                message.chatType(),
                message.replyTarget(),
                message.threadId(),
                message.sender(),
                message.senderName());
    }

    /**
     * The inbound message a fire puts in the inbox: its platform id is the job id and fire time, so the inbox
     * deduplicates a second fire of the same time and its turn id keys the reply (SPEC OUT-12).
     */
    public InboundMessage fire(long jobId, Instant fireAt, String text) {
        return InboundMessage.builder()
                .id(messageId(jobId, fireAt))
                .channel(channel)
                .account(account)
                .sender(sender)
                .senderName(senderName)
                .replyTarget(replyTarget)
                .threadId(threadId)
                .chatType(chatType)
                .mentioned(true)
                .timestamp(fireAt)
                .text(text)
                .build();
    }

    /** {@code cron:<job>:<fire time in epoch ms>}. */
    public static String messageId(long jobId, Instant fireAt) {
        return "cron:" + jobId + ":" + fireAt.toEpochMilli();
    }
}
