package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SPEC OUT-7 reconcile: was a payload sent before the process died? Pages back through the room's messages ({@code GET
 * /rooms/{room}/messages?dir=b}) looking for the bot's event whose content carries the payload's transaction id
 * ({@link RoomSender#MARKER}; {@code unsigned.transaction_id} too, which the homeserver shows the sending device).
 * Reaching the message the reply answers (it came before any reply to it), or the room's first event, without a match
 * proves it was not sent; a resend then reuses the transaction id, so a send that landed meanwhile is the same event
 * while the homeserver remembers the transaction. Past {@link #MAX_PAGES} pages it cannot tell.
 */
final class SentLookup {
    static final int PAGE = 100;
    static final int MAX_PAGES = 20;

    private final MatrixBot bot;

    SentLookup(MatrixBot bot) {
        this.bot = bot;
    }

    Reconciliation find(OutboundMessage m, String txnId, CancelToken cancel) throws DeliveryException {
        String room = m.target().replyTarget();
        String answers = m.target().inReplyToMessageId();
        ObjectNode filter = MatrixApi.JSON.createObjectNode();
        filter.putArray("types").add("m.room.message");
        String from = null;
        try {
            for (int page = 0; page < MAX_PAGES; page++) {
                Map<String, String> q = new LinkedHashMap<>();
                q.put("dir", "b");
                q.put("limit", Integer.toString(PAGE));
                q.put("filter", filter.toString());
                q.put("from", from);
                JsonNode r = bot.api.get(
                        "/_matrix/client/v3/rooms/" + MatrixApi.seg(room) + "/messages" + MatrixApi.query(q),
                        bot.account.callTimeout(),
                        cancel);
                for (JsonNode e : r.path("chunk")) {
                    if (e.path("event_id").asText().equals(answers)) return new Reconciliation.NotSent();
                    if (!e.path("sender").asText().equals(bot.userId())) continue;
                    if (txnId.equals(e.path("content").path(RoomSender.MARKER).asText(null))
                            || txnId.equals(
                                    e.path("unsigned").path("transaction_id").asText(null))) {
                        return new Reconciliation.Found(receipt(m, e));
                    }
                }
                from = r.path("end").asText(null);
                if (from == null || r.path("chunk").isEmpty())
                    return new Reconciliation.NotSent(); // the room's first event
            }
        } catch (MatrixApiException e) {
            throw e.toDelivery("matrix reconcile");
        }
        return new Reconciliation.Unknown(
                "not found in the room's last " + PAGE * MAX_PAGES + " messages, nor the message it answers");
    }

    /** The receipt of a found event; a found edit (a live preview's final edit) stands for the draft it replaced. */
    private static MessageReceipt receipt(OutboundMessage m, JsonNode e) {
        JsonNode rel = e.path("content").path("m.relates_to");
        String id = "m.replace".equals(rel.path("rel_type").asText())
                ? rel.path("event_id").asText()
                : e.path("event_id").asText();
        MessageReceipt.PartKind kind =
                m.media().isEmpty() ? MessageReceipt.PartKind.TEXT : MessageReceipt.PartKind.MEDIA;
        Instant at = e.path("origin_server_ts").canConvertToLong()
                ? Instant.ofEpochMilli(e.path("origin_server_ts").asLong())
                : Instant.now();
        return new MessageReceipt(
                id,
                List.of(id),
                List.of(new MessageReceipt.Part(kind, id)),
                m.target().threadId(),
                null,
                id,
                id,
                at,
                e.toString());
    }
}
