package dev.clawgate.core.internal.memory;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import java.util.List;
import java.util.Objects;

/**
 * A turn whose run has returned, handed to consolidation (SPEC ME-6). It carries only what the run started with;
 * whether the turn ended with a final reply, and what it said, is read back from the store, where the reply committed.
 *
 * @param turnId the inbox id of the turn's last message (SPEC OUT-12)
 * @param messages the user's messages of the turn, oldest first, as they arrived
 */
public record FinishedTurn(long turnId, SessionKey session, List<InboundMessage> messages) {
    public FinishedTurn {
        Objects.requireNonNull(session, "session");
        messages = List.copyOf(messages);
        if (messages.isEmpty()) throw new IllegalArgumentException("a finished turn has at least one message");
    }

    public static FinishedTurn of(RunHandle run) {
        InboxRecord last = run.record();
        return new FinishedTurn(
                last.id(),
                last.session(),
                run.records().stream().map(InboxRecord::message).toList());
    }

    /** The message that started the turn's reply: the last one. */
    public InboundMessage last() {
        return messages.getLast();
    }
}
