package dev.clawgate.core.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One delivery intent of the write-ahead outbox (SPEC OUT-5).
 *
 * @param turnId    the inbox id of the turn's last message: with the draft's kind, the entry's unique key (SPEC OUT-12)
 * @param attempts  how many sends failed transiently so far
 * @param receiptId the platform's message id once sent, or null
 * @param detail    why the entry is in its state (a failure, an expiry), or null
 */
public record OutboxEntry(long id, long turnId, OutboundDraft draft, OutboxState state, int attempts, Instant createdAt,
                          Instant updatedAt, String receiptId, String detail) {
    public OutboxEntry {
        Objects.requireNonNull(draft, "draft");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
