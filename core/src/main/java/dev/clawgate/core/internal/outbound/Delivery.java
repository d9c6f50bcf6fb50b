package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.run.CancelToken;

/**
 * How a message reaches a channel without the outbox: notices, replies of connection-bound channels, and the
 * best-effort fallback when the outbox cannot be written (SPEC OUT-5, OUT-6).
 */
@FunctionalInterface
public interface Delivery {
    DeliveryOutcome deliver(OutboundMessage message, MessageAdapter adapter, CancelToken cancel);

    /** Sends at once through {@code payloads}, no hooks: the form tests of the pipeline use. */
    static Delivery direct() {
        return new DirectDelivery(new Payloads(null));
    }
}
