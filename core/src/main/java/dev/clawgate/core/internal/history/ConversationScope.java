package dev.clawgate.core.internal.history;

/** Whose conversation a group message belongs to (SPEC HI-1 {@code session.group_scope}). */
enum ConversationScope {
    /** Each sender has their own conversation (direct chats; {@code group_scope = per-sender}). */
    SENDER,
    /** One conversation per room or thread, shared by its members ({@code group_scope = shared}). */
    REPLY_TARGET
}
