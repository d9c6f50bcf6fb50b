package dev.clawgate.core.internal.turn;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.internal.outbound.DeliveryOutcome;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends a turn's messages through the configured {@link dev.clawgate.core.internal.outbound.Delivery}. */
final class Replies {
    private static final Logger log = LoggerFactory.getLogger(Replies.class);
    private final TurnServices s;

    Replies(TurnServices s) {
        this.s = s;
    }

    void send(
            MessageAdapter adapter,
            OutboundTarget target,
            String text,
            OutboundMessage.Kind kind,
            long turnId,
            CancelToken cancel) {
        DeliveryOutcome outcome =
                s.delivery().deliver(new OutboundMessage(target, text, kind, turnId), adapter, cancel);
        if (!(outcome instanceof DeliveryOutcome.Sent)) {
            log.info("turn {}: {} to {} not delivered: {}", turnId, kind, target.channel(), outcome);
        }
    }

    /** SPEC AG-6: a short line per tool call, e.g. 🔧 `shell`: ls /home. */
    void announceTool(MessageAdapter adapter, OutboundTarget target, ToolCall call, long turnId, CancelToken cancel) {
        send(
                adapter,
                target,
                "🔧 `" + call.name() + "`" + argumentHint(call.arguments()),
                OutboundMessage.Kind.NOTICE,
                turnId,
                cancel);
    }

    private static String argumentHint(JsonNode args) {
        if (args == null || args.isEmpty()) return "";
        JsonNode first = args.elements().next();
        String v = first.isTextual() ? first.asText() : first.toString();
        v = v.replace('\n', ' ');
        return ": " + (v.length() > 60 ? v.substring(0, 60) + "…" : v);
    }
}
