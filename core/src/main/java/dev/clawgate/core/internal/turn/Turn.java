package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import java.util.List;

/**
 * What one turn works on, read once when it starts: the records the inbound hook kept (the last one answered), the
 * config of that moment, the channel's adapter and the run's handle; and the final state each record is given.
 */
record Turn(
        List<InboxRecord> batch, ClawgateConfig config, MessageAdapter adapter, RunHandle handle, FinalStates finals) {

    Turn {
        batch = List.copyOf(batch);
        if (batch.isEmpty()) throw new IllegalArgumentException("a turn answers at least one record");
    }

    /** A turn whose records have no final state yet. */
    Turn(List<InboxRecord> batch, ClawgateConfig config, MessageAdapter adapter, RunHandle handle) {
        this(batch, config, adapter, handle, new FinalStates());
    }

    /** Gives record {@code inboxId} of this turn its final state (SPEC IN-4); see {@link FinalStates#finish}. */
    void finish(long inboxId, InboxState state) {
        finals.finish(inboxId, state);
    }

    /** The record the turn answers: the newest of its batch. */
    InboxRecord current() {
        return batch.getLast();
    }

    long id() {
        return current().id();
    }

    SessionKey session() {
        return current().session();
    }

    OutboundTarget target() {
        return OutboundTarget.replyTo(current().message());
    }

    CancelToken cancel() {
        return handle.cancel();
    }

    /** SPEC CH-10: a stateless call's turn writes nothing into a transcript. */
    boolean stateless() {
        return adapter.carriedConversation(target()).isPresent();
    }
}
