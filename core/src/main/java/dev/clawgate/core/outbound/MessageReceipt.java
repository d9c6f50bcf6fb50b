package dev.clawgate.core.outbound;

import java.time.Instant;
import java.util.List;

/** What the platform gave back for a send (SPEC OUT-8; the full receipt arrives with the outbox). */
public record MessageReceipt(String primaryId, List<String> platformIds, Instant sentAt) {
    public MessageReceipt {
        platformIds = platformIds == null ? List.of() : List.copyOf(platformIds);
    }

    public static MessageReceipt of(String id) {
        return new MessageReceipt(id, id == null ? List.of() : List.of(id), Instant.now());
    }
}
