package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.AckReactionCalls;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ack reactions (SPEC RP-5) as {@code m.reaction} annotations ("Event annotations and reactions"): 👀 when a message is
 * received; when core settles it, the 👀 reaction redacted and ✅ for done or ⚠️ for failed or expired added. The calls
 * of one message run in order on the I/O executor.
 */
final class AckReactions {
    private static final Logger log = LoggerFactory.getLogger(AckReactions.class);
    static final String SEEN = "👀", DONE = "✅", FAILED = "⚠️";

    private record Message(String room, String eventId) {}

    private final RoomSender sender;
    private final AckReactionCalls<Message> calls;
    /** The 👀 reaction's event id, until it is taken away. */
    private final Map<Message, String> seen = new ConcurrentHashMap<>();

    AckReactions(RoomSender sender, Executor io) {
        this.sender = sender;
        this.calls = new AckReactionCalls<>(io);
    }

    void received(String room, String eventId) {
        Message m = new Message(room, eventId);
        calls.inOrder(m, () -> {
            String id = react(m, SEEN);
            if (id != null) seen.put(m, id);
        });
    }

    void settled(String room, String eventId, InboxState state) {
        Message m = new Message(room, eventId);
        AckReactionCalls.Outcome o = AckReactionCalls.outcome(state);
        String outcome = o == null ? null : o == AckReactionCalls.Outcome.DONE ? DONE : FAILED;
        calls.inOrder(m, () -> {
            String id = seen.remove(m);
            if (id != null) sender.redact(room, id);
            if (outcome != null) react(m, outcome);
        });
    }

    private String react(Message m, String key) {
        ObjectNode c = MatrixApi.JSON.createObjectNode();
        c.putObject("m.relates_to")
                .put("rel_type", "m.annotation")
                .put("event_id", m.eventId())
                .put("key", key);
        try {
            return sender.send(m.room(), "m.reaction", sender.freshTxnId("react"), c, CancelToken.none());
        } catch (DeliveryException | RuntimeException e) {
            log.debug("matrix: reaction {} on {} not sent: {}", key, m.eventId(), e.getMessage());
            return null;
        }
    }
}
