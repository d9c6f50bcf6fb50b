package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.internal.trace.Phase;
import dev.clawgate.core.internal.trace.PhaseScope;
import dev.clawgate.core.internal.trace.TurnPhases;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import java.util.Locale;

/**
 * One payload to the platform as a {@link Phase#SEND} phase of the turn's trace (SPEC OP-9): its channel, kind and
 * part, and how it failed. On a thread without a turn (the outbox worker's retries) it is a plain send.
 */
final class TracedSend {
    private TracedSend() {}

    /** The platform call itself; the caller holds the channel's adapter, so this stage does not look back at it. */
    @FunctionalInterface
    interface Send {
        MessageReceipt send() throws DeliveryException;
    }

    static MessageReceipt send(OutboundMessage part, Send send) throws DeliveryException {
        try (PhaseScope phase = TurnPhases.begin(Phase.SEND, part.target().channel())) {
            phase.attribute("kind", part.kind().name().toLowerCase(Locale.ROOT));
            phase.attribute("part", Integer.toString(part.part()));
            try {
                return send.send();
            } catch (DeliveryException e) {
                phase.failed(e.kind().name().toLowerCase(Locale.ROOT));
                throw e;
            } catch (RuntimeException e) {
                phase.failed(e.getClass().getSimpleName());
                throw e;
            }
        }
    }
}
