package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.run.CancelToken;
import java.util.List;

/** A reply sent in parts: what cancels the next part, and what a failed part says of those already delivered. */
final class PartSends {
    private PartSends() {}

    /**
     * SPEC OUT-11: the run's abort reaches a reply until its first part is out; after that the rest follows, so a reply
     * is never half-sent (as the outbox does across payloads).
     */
    static CancelToken untilDelivered(CancelToken cancel, List<MessageReceipt.Part> delivered) {
        return delivered.isEmpty() ? cancel : CancelToken.none();
    }

    @FunctionalInterface
    interface Call {
        JsonNode run() throws BotApiException;
    }

    static JsonNode sendOrThrow(Call call, String what, List<MessageReceipt.Part> delivered) throws DeliveryException {
        try {
            return call.run();
        } catch (BotApiException e) {
            DeliveryException d = e.toDelivery(what
                    + (delivered.isEmpty()
                            ? ""
                            : " after " + delivered.size() + " delivered part(s) "
                                    + delivered.stream()
                                            .map(MessageReceipt.Part::platformId)
                                            .toList()));
            throw d;
        }
    }
}
