package dev.clawgate.core.store;

import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.SendOptions;
import dev.clawgate.core.render.ReplyToMode;
import java.util.List;
import java.util.Objects;

/**
 * A reply as the write-ahead outbox keeps it (SPEC OUT-5): everything needed to send it again after a restart, without
 * the turn that produced it. Media are not kept: they are derived from the text's markers each time it is planned (SPEC
 * OUT-13), so a replay sends the same ones.
 *
 * @param replyTo which of the reply's parts quote the inbound message (SPEC OUT-3): {@code off}, {@code first} or
 *     {@code all}, decided by the turn
 * @param payload the message's platform-native payload (JSON text), or null (SPEC OUT-4 payload)
 */
public record OutboundDraft(
        String channel,
        String account,
        String replyTarget,
        String threadId,
        String inReplyToMessageId,
        String text,
        OutboundMessage.Kind kind,
        String sendKey,
        ReplyToMode replyTo,
        String payload) {
    public OutboundDraft {
        payload = payload == null || payload.isBlank() ? null : payload;
        sendKey = sendKey == null ? "" : sendKey;
        replyTo = replyTo == null ? ReplyToMode.ALL : replyTo;
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(replyTarget, "replyTarget");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(kind, "kind");
        if (replyTo == ReplyToMode.BATCHED)
            throw new IllegalArgumentException("batched is decided by the turn, not kept with a reply");
    }

    public OutboundDraft(
            String channel,
            String account,
            String replyTarget,
            String threadId,
            String inReplyToMessageId,
            String text,
            OutboundMessage.Kind kind,
            String sendKey,
            ReplyToMode replyTo) {
        this(channel, account, replyTarget, threadId, inReplyToMessageId, text, kind, sendKey, replyTo, null);
    }

    public OutboundDraft(
            String channel,
            String account,
            String replyTarget,
            String threadId,
            String inReplyToMessageId,
            String text,
            OutboundMessage.Kind kind,
            String sendKey) {
        this(channel, account, replyTarget, threadId, inReplyToMessageId, text, kind, sendKey, ReplyToMode.ALL);
    }

    public OutboundDraft(
            String channel,
            String account,
            String replyTarget,
            String threadId,
            String inReplyToMessageId,
            String text,
            OutboundMessage.Kind kind) {
        this(channel, account, replyTarget, threadId, inReplyToMessageId, text, kind, "");
    }

    public static OutboundDraft of(OutboundTarget target, String text, OutboundMessage.Kind kind) {
        return new OutboundDraft(
                target.channel(),
                target.account(),
                target.replyTarget(),
                target.threadId(),
                target.inReplyToMessageId(),
                text,
                kind,
                "");
    }

    /** A turn's reply as it will be sent: its text and its threading (media stay in the text as markers). */
    public static OutboundDraft of(OutboundMessage reply) {
        OutboundTarget t = reply.target();
        ReplyToMode threading = reply.options().replyTo() ? reply.options().threading() : ReplyToMode.OFF;
        return new OutboundDraft(
                t.channel(),
                t.account(),
                t.replyTarget(),
                t.threadId(),
                t.inReplyToMessageId(),
                reply.text(),
                reply.kind(),
                reply.sendKey(),
                threading,
                reply.payload());
    }

    /** An agent's {@code message_send} (SPEC AG-5), told apart from the turn's other sends by {@code sendKey}. */
    public static OutboundDraft send(OutboundTarget target, String text, String sendKey) {
        return send(target, text, sendKey, null);
    }

    /** An agent's {@code message_send} with a platform-native {@code payload} (or null). */
    public static OutboundDraft send(OutboundTarget target, String text, String sendKey, String payload) {
        if (sendKey == null || sendKey.isBlank()) throw new IllegalArgumentException("a message_send needs a send key");
        return new OutboundDraft(
                target.channel(),
                target.account(),
                target.replyTarget(),
                target.threadId(),
                target.inReplyToMessageId(),
                text,
                OutboundMessage.Kind.SEND,
                sendKey,
                ReplyToMode.ALL,
                payload);
    }

    public OutboundTarget target() {
        return new OutboundTarget(channel, account, replyTarget, threadId, inReplyToMessageId);
    }

    /** The message to hand to the channel's adapter for turn {@code turnId}. */
    public OutboundMessage message(long turnId) {
        SendOptions options = replyTo == ReplyToMode.ALL ? SendOptions.DEFAULT : SendOptions.threaded(replyTo);
        return new OutboundMessage(target(), text, kind, turnId, List.of(), options, 0, sendKey, payload);
    }
}
