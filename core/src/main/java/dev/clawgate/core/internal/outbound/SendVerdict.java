package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundMessage;
import java.util.List;

/**
 * How one claimed entry's send ended (SPEC OUT-5, OUT-7, OUT-11): what {@link DeliveryAttempt} found, turned into the
 * entry's new state by the one switch in {@link Outbox}.
 */
sealed interface SendVerdict {

    /** Nothing to send, or nothing the platform identified (SPEC OUT-10). */
    record Suppressed(SuppressionReason reason, String detail) implements SendVerdict {}

    /** The channel can no longer carry the entry: a config change took a capability away. */
    record Unfit(String why) implements SendVerdict {}

    /** A run's abort before anything of the entry reached the platform (SPEC OUT-11). */
    record Cancelled(String why) implements SendVerdict {}

    /** A failure known not to have delivered the part: retried or given up by the retry schedule. */
    record Failed(DeliveryException error, List<OutboundMessage> parts) implements SendVerdict {}

    /** The part may have reached the platform: never resent blindly (SPEC OUT-7). */
    record Unknown(String why) implements SendVerdict {}

    /** Every part is out; {@code fit} says which payloads were sent and which dropped. */
    record Delivered(OutboundMessage reply, Capabilities.Fit fit) implements SendVerdict {}
}
