package dev.clawgate.core.internal.inbound;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.Store;
import java.util.List;
import java.util.Objects;

/**
 * The group history buffer (SPEC IN-6): group messages that triggered no run wait in the inbox as {@code buffered};
 * when a run triggers, the newest of them become the context of its prompt
 * ({@link dev.clawgate.core.internal.prompt.PromptBody#body}). Buffered messages are not in the transcript, so none is
 * repeated.
 */
final class GroupHistory {
    private GroupHistory() {}

    /**
     * The newest {@code limit} buffered messages of the session, oldest first; none when {@code limit} is 0
     * ({@code messages.group.history_limit = 0} disables the buffer).
     */
    public static List<InboundMessage> pendingFor(Store store, SessionKey session, int limit) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(session, "session");
        if (limit < 0) throw new IllegalArgumentException("history limit must not be negative, got " + limit);
        if (limit == 0) return List.of();
        return store.inbox().buffered(session, limit).stream()
                .map(InboxRecord::message)
                .toList();
    }
}
