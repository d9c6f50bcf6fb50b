package dev.clawgate.core.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.run.CancelToken;

/**
 * How the turn pipeline hands a message to a channel. The direct form sends at once; the
 * write-ahead outbox (SPEC OUT-5) is another implementation of this one method.
 */
@FunctionalInterface
public interface Delivery {
    MessageReceipt deliver(OutboundMessage message, MessageAdapter adapter, CancelToken cancel) throws DeliveryException;

    static Delivery direct() {
        return (message, adapter, cancel) -> adapter.send(message, cancel);
    }
}
