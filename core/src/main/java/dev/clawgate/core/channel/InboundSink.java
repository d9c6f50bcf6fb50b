package dev.clawgate.core.channel;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.InboxState;
import java.util.Optional;

/**
 * Where a channel hands what it received (SPEC IN-4). {@link #accept} returns only once the
 * message is committed to the inbox; a channel must not acknowledge the platform before.
 * It may block while the bus is full (back-pressure, SPEC DI-1).
 */
@FunctionalInterface
public interface InboundSink {
    Acceptance accept(InboundMessage message);

    /**
     * Where the record {@code inboxId} (an {@link Acceptance#inboxId()}) stands now, read from the
     * store: how a channel acking at a later stage (SPEC IN-3 after_agent_dispatch,
     * after_durable_send) learns it was reached. Empty when unknown; such a record is not acked.
     */
    default Optional<InboxState> recordState(long inboxId) {
        return Optional.empty();
    }

    /** The outcome of {@link #accept}: the inbox id, or that it was a duplicate (then id is -1). */
    record Acceptance(long inboxId, boolean duplicate) {
        public static Acceptance recorded(long id) {
            return new Acceptance(id, false);
        }

        public static final Acceptance DUPLICATE = new Acceptance(-1, true);
    }
}
