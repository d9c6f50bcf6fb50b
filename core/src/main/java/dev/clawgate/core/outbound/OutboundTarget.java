package dev.clawgate.core.outbound;

import dev.clawgate.core.model.InboundMessage;

/**
 * Where a reply goes: the conversation of the inbound message, and which message it answers.
 *
 * @param inReplyToMessageId the platform id of the inbound message this reply answers, or null
 */
public record OutboundTarget(
        String channel, String account, String replyTarget, String threadId, String inReplyToMessageId) {
    public static OutboundTarget replyTo(InboundMessage m) {
        return new OutboundTarget(m.channel(), m.account(), m.replyTarget(), m.threadId(), m.id());
    }
}
