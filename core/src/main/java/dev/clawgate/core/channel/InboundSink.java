package dev.clawgate.core.channel;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.UnreadableInbound;
import java.util.Optional;

/**
 * Where a channel hands what it received (SPEC IN-4). {@link #accept} returns only once the message is committed to the
 * inbox; a channel must not acknowledge the platform before. It may block while the bus is full (back-pressure, SPEC
 * DI-1).
 */
@FunctionalInterface
public interface InboundSink {
    Acceptance accept(InboundMessage message);

    /**
     * Where the record {@code inboxId} (an {@link Acceptance#inboxId()}) stands now, read from the store: how a channel
     * acking at a later stage (SPEC IN-3 after_agent_dispatch, after_durable_send) learns it was reached. Empty when
     * unknown; such a record is not acked.
     */
    default Optional<InboxState> recordState(long inboxId) {
        return Optional.empty();
    }

    /**
     * Keeps an update the channel could not read (SPEC IN-4, CH-0: a poison message never blocks a stream): it returns
     * once the update is recorded as failed, with its raw payload (bounded), and then the channel acknowledges past it.
     * A store failure propagates, and the channel must not acknowledge. This default, for sinks without a store
     * (tests), only logs it.
     */
    default void unreadable(UnreadableInbound update) {
        org.slf4j.LoggerFactory.getLogger(InboundSink.class)
                .warn(
                        "{} [{}]: unreadable update {} skipped: {}",
                        update.channel(),
                        update.account(),
                        update.platformRef(),
                        update.reason());
    }

    /**
     * The outcome of {@link #accept}: the inbox id, or that it was a duplicate (then id is -1).
     *
     * @param refusal why the message was refused without a turn (SPEC OP-10: longer than {@code messages.max_chars}),
     *     or null. A refused message is recorded (bounded, failed) and may be acknowledged like any other; a channel
     *     that answers on the sender's connection (the API, the web chat, the terminal) says the refusal there, any
     *     other gets it as a notice through its message adapter.
     */
    record Acceptance(long inboxId, boolean duplicate, String refusal) {
        public Acceptance(long inboxId, boolean duplicate) {
            this(inboxId, duplicate, null);
        }

        public static Acceptance recorded(long id) {
            return new Acceptance(id, false);
        }

        public static Acceptance refused(long id, String reason) {
            return new Acceptance(id, false, reason);
        }

        public boolean refused() {
            return refusal != null;
        }

        public static final Acceptance DUPLICATE = new Acceptance(-1, true);
    }
}
