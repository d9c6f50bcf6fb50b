package dev.clawgate.core.channel;

import dev.clawgate.core.model.InboundMessage;

/**
 * Where a channel hands what it received (SPEC IN-4). {@link #accept} returns only once the
 * message is committed to the inbox; a channel must not acknowledge the platform before.
 * It may block while the bus is full (back-pressure, SPEC DI-1).
 */
@FunctionalInterface
public interface InboundSink {
    Acceptance accept(InboundMessage message);

    /** The outcome of {@link #accept}: the inbox id, or that it was a duplicate (then id is -1). */
    record Acceptance(long inboxId, boolean duplicate) {
        public static Acceptance recorded(long id) {
            return new Acceptance(id, false);
        }

        public static final Acceptance DUPLICATE = new Acceptance(-1, true);
    }
}
