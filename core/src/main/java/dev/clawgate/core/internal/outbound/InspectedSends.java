package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.inspect.Detail;
import dev.clawgate.core.inspect.TurnTrail;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Delivery's side of the turn inspector (SPEC OP-8, OUT-8): the chunks of a reply and each send attempt. */
final class InspectedSends {
    private InspectedSends() {}

    /** The parts a reply was cut into, with their sizes. */
    static void chunks(OutboundMessage reply, List<OutboundMessage> parts, String via) {
        TurnTrail.current().mark("chunks", () -> {
            List<Detail> each = new ArrayList<>(parts.size());
            for (OutboundMessage p : parts) {
                each.add(Detail.of()
                        .put("chars", p.text() == null ? 0 : p.text().length())
                        .put("media", p.media().size()));
            }
            return Detail.of()
                    .put("kind", reply.kind().name().toLowerCase(Locale.ROOT))
                    .put("via", via)
                    .put("reply_chars", reply.text() == null ? 0 : reply.text().length())
                    .put("parts", parts.size())
                    .raw("sizes", Detail.list(each));
        });
    }

    /** A send that reached the platform, with its receipt (SPEC OUT-8). */
    static void sent(long startedAt, OutboundMessage part, MessageReceipt receipt, long outboxId) {
        TurnTrail.current()
                .span(
                        "send",
                        startedAt,
                        () -> Detail.of()
                                .put("kind", part.kind().name().toLowerCase(Locale.ROOT))
                                .put("outbox_id", outboxId)
                                .put("part", part.part())
                                .put("outcome", "sent")
                                .put("message_id", receipt.primaryId())
                                .put("platform_ids", receipt.platformIds().size())
                                .put("thread_id", receipt.threadId())
                                .put("reply_to", receipt.replyToId()));
    }

    /** A send that failed, and how. */
    static void failed(long startedAt, OutboundMessage part, DeliveryException e, long outboxId) {
        TurnTrail.current()
                .span(
                        "send",
                        startedAt,
                        () -> Detail.of()
                                .put("kind", part.kind().name().toLowerCase(Locale.ROOT))
                                .put("outbox_id", outboxId)
                                .put("part", part.part())
                                .put("outcome", e.kind().name().toLowerCase(Locale.ROOT))
                                .put("error", String.valueOf(e.getMessage())));
    }
}
