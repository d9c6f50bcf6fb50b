package dev.clawgate.core.store;

import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import java.util.Objects;

/**
 * A reply as the write-ahead outbox keeps it (SPEC OUT-5): everything needed to send it again
 * after a restart, without the turn that produced it.
 */
public record OutboundDraft(String channel, String account, String replyTarget, String threadId, String inReplyToMessageId,
                            String text, OutboundMessage.Kind kind) {
    public OutboundDraft {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(replyTarget, "replyTarget");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(kind, "kind");
    }

    public static OutboundDraft of(OutboundTarget target, String text, OutboundMessage.Kind kind) {
        return new OutboundDraft(target.channel(), target.account(), target.replyTarget(), target.threadId(),
                target.inReplyToMessageId(), text, kind);
    }

    public OutboundTarget target() {
        return new OutboundTarget(channel, account, replyTarget, threadId, inReplyToMessageId);
    }

    /** The message to hand to the channel's adapter for turn {@code turnId}. */
    public OutboundMessage message(long turnId) {
        return new OutboundMessage(target(), text, kind, turnId);
    }
}
