package dev.clawgate.core.internal.history;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import java.util.Objects;

/**
 * The string keys derived from a message: the history key (display form of the session, SPEC HI-1), the interruption
 * scope (SPEC DI-4) and the auto-saved memory key (SPEC ME-1). Keys used as names (history, memory) are sanitised; the
 * interruption scope key is compared, never stored as a name, so it keeps the ids as they came.
 */
public final class ConversationKeys {
    private ConversationKeys() {}

    /**
     * The session a message belongs to: its chat, its thread when it has one, and the sender when conversations are
     * scoped per sender. {@link InboundMessage#threadId()} is the conversation thread as the platform defines it; where
     * a reply is delivered (a message to reply to or to start a thread under) is the outbox's business, never part of
     * the key.
     */
    public static SessionKey sessionKey(InboundMessage m, ConversationScope scope) {
        Objects.requireNonNull(m, "message");
        Objects.requireNonNull(scope, "scope");
        String thread = m.threadId() == null || m.threadId().isEmpty() ? null : m.threadId();
        String sender = scope == ConversationScope.SENDER ? m.sender() : null;
        return new SessionKey(m.channel(), m.account(), m.chatType(), m.replyTarget(), thread, sender);
    }

    /**
     * {@code sanitize({channel}[.{account}]_{target}[_{thread}][_{sender}])}: for logs, files and the display of a
     * session.
     */
    public static String historyKey(SessionKey key) {
        return sanitize(key.display());
    }

    public static String historyKey(InboundMessage m, ConversationScope scope) {
        return historyKey(sessionKey(m, scope));
    }

    /** {@code {channel}_{reply_target}_{sender}[_{scope_id}]} (SPEC DI-4). */
    public static String interruptionScopeKey(InboundMessage m) {
        String key = m.channel() + "_" + m.replyTarget() + "_" + m.sender();
        return m.scopeId() == null || m.scopeId().isEmpty() ? key : key + "_" + m.scopeId();
    }

    /**
     * {@code {channel}_{thread_id}_{sender}_{message_id}}, or without the thread (SPEC ME-1): unique per message. A
     * message without a platform id uses its timestamp instead.
     */
    public static String memoryKey(InboundMessage m) {
        String id = m.id() == null || m.id().isEmpty() ? "t" + m.timestamp().toEpochMilli() : m.id();
        String thread = m.threadId() == null || m.threadId().isEmpty() ? "" : m.threadId() + "_";
        return sanitize(m.channel() + "_" + thread + m.sender() + "_" + id);
    }

    /** Every code point that is not a letter, a digit, {@code _} or {@code -} becomes {@code _}; idempotent. */
    public static String sanitize(String key) {
        if (key == null) return "";
        StringBuilder out = new StringBuilder(key.length());
        key.codePoints().forEach(cp -> {
            if (Character.isLetterOrDigit(cp) || cp == '_' || cp == '-') out.appendCodePoint(cp);
            else out.append('_');
        });
        return out.toString();
    }
}
