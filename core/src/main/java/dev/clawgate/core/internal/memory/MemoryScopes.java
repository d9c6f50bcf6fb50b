package dev.clawgate.core.internal.memory;

import dev.clawgate.core.internal.inbound.SessionKeys;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import java.util.List;
import java.util.Objects;

/**
 * The memory scopes of one turn (SPEC ME-2): the sender's, the conversation's, and whether the conversation is a group.
 * A direct chat's memories are the sender's, so they follow the person into their next session; a group's are the
 * room's.
 */
public record MemoryScopes(MemoryScope sender, MemoryScope session, boolean group) {
    public MemoryScopes {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(session, "session");
    }

    /** The scopes of a turn started by {@code m} in {@code session}. */
    public static MemoryScopes of(InboundMessage m, SessionKey session) {
        return new MemoryScopes(
                MemoryScope.sender(m.channel(), m.sender()),
                MemoryScope.session(session),
                m.chatType() == ChatType.GROUP);
    }

    /**
     * The scopes a session alone implies, for a tool run without its message: the session's sender when the session
     * names one on one channel, else the session itself; null gives the global scope.
     */
    public static MemoryScopes forSession(SessionKey session) {
        if (session == null) return new MemoryScopes(MemoryScope.global(), MemoryScope.global(), false);
        MemoryScope own = MemoryScope.session(session);
        boolean group = session.chatType() == ChatType.GROUP;
        boolean namesSender = session.sender() != null && !SessionKeys.ANY.equals(session.channel());
        return new MemoryScopes(
                namesSender ? MemoryScope.sender(session.channel(), session.sender()) : own, own, group);
    }

    /** Where this turn's own memories go: the room's in a group, the sender's in a direct chat. */
    public MemoryScope home() {
        return group ? session : sender;
    }

    /**
     * SPEC ME-2: one recall per entry, each with its own limit: the sender's and global, then in a group the room's.
     */
    public List<List<MemoryScope>> recallSets() {
        List<MemoryScope> first = List.of(sender, MemoryScope.global());
        return group && !session.equals(sender) ? List.of(first, List.of(session)) : List.of(first);
    }
}
