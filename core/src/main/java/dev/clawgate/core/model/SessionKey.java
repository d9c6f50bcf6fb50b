package dev.clawgate.core.model;

import java.util.Objects;

/**
 * Which conversation a message belongs to (SPEC HI-1). The tuple is the identity; it is stored as columns.
 * {@link #display()} is for logs and screens only and must never be used as a key, because joined strings collide.
 *
 * @param sender null for a group session shared by the whole room
 */
public record SessionKey(
        String channel, String account, ChatType chatType, String replyTarget, String threadId, String sender) {

    public SessionKey {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(chatType, "chatType");
        Objects.requireNonNull(replyTarget, "replyTarget");
        account = account == null || account.isBlank() ? InboundMessage.DEFAULT_ACCOUNT : account;
    }

    /** The session of a message under the default scopes: per channel peer, one per group room/thread. */
    public static SessionKey of(InboundMessage m) {
        String sender = m.chatType() == ChatType.DIRECT ? m.sender() : null;
        return new SessionKey(m.channel(), m.account(), m.chatType(), m.replyTarget(), m.threadId(), sender);
    }

    /** {@code {channel}[.{account}]_{target}[_{thread}][_{sender}]}: for display only. */
    public String display() {
        StringBuilder sb = new StringBuilder(channel);
        if (!InboundMessage.DEFAULT_ACCOUNT.equals(account)) sb.append('.').append(account);
        sb.append('_').append(replyTarget);
        if (threadId != null) sb.append('_').append(threadId);
        if (sender != null) sb.append('_').append(sender);
        return sb.toString();
    }

    @Override
    public String toString() {
        return display();
    }
}
