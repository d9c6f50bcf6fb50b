package dev.clawgate.core.channel;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;

/**
 * A channel's outbound side (SPEC OUT-4). The turn pipeline reaches the platform only through it.
 */
public interface MessageAdapter {

    /** Sends one message; returns once the platform accepted it. */
    MessageReceipt send(OutboundMessage message, CancelToken cancel) throws DeliveryException;

    /** The platform's text limit, as the platform counts it (SPEC OUT-1). */
    default int textLimit() {
        return 4000;
    }

    /** A stream for the reply to {@code target} while it is generated; {@link ReplyStream#NONE} when the channel does not stream. */
    default ReplyStream openStream(OutboundTarget target) {
        return ReplyStream.NONE;
    }

    /**
     * Whether final replies go through the write-ahead outbox (SPEC OUT-6). False only for
     * connection-bound channels (terminal, API): a reply replayed after a restart has no connection to reach.
     */
    default boolean durableReplies() {
        return true;
    }

    /** Told once when a turn ends, whatever the outcome: connection-bound channels finish their exchange here. */
    default void turnEnded(OutboundTarget target, long turnId, TurnOutcome outcome) {
    }
}
