package dev.clawgate.core.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.trace.Phase;
import dev.clawgate.core.trace.PhaseScope;
import dev.clawgate.core.trace.TurnPhases;
import java.util.Locale;

/**
 * One payload to the platform as a {@link Phase#SEND} phase of the turn's trace (SPEC OP-9): its channel, kind and
 * part, and how it failed. On a thread without a turn (the outbox worker's retries) it is a plain send.
 */
final class TracedSend {
    private TracedSend() {}

    static MessageReceipt send(MessageAdapter adapter, OutboundMessage part, CancelToken cancel)
            throws DeliveryException {
        try (PhaseScope phase = TurnPhases.begin(Phase.SEND, part.target().channel())) {
            phase.attribute("kind", part.kind().name().toLowerCase(Locale.ROOT));
            phase.attribute("part", Integer.toString(part.part()));
            try {
                return adapter.send(part, cancel);
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
