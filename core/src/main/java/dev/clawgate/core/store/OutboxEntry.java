package dev.clawgate.core.store;

import dev.clawgate.core.outbound.MessageReceipt;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One delivery intent of the write-ahead outbox (SPEC OUT-5).
 *
 * @param turnId the inbox id of the turn's last message: with the draft's kind, the entry's unique key (SPEC OUT-12)
 * @param attempts how many sends failed transiently so far
 * @param receipts one per payload the platform took so far, in order (SPEC OUT-8): a retry resumes after them
 * @param nextAttemptAt when a {@code PENDING} entry may be sent (later than {@code createdAt} after a failure)
 * @param detail why the entry is in its state (a failure, an expiry, a suppression reason), or null
 */
public record OutboxEntry(
        long id,
        long turnId,
        OutboundDraft draft,
        OutboxState state,
        int attempts,
        Instant createdAt,
        Instant updatedAt,
        List<MessageReceipt> receipts,
        Instant nextAttemptAt,
        String detail) {
    public OutboxEntry {
        Objects.requireNonNull(draft, "draft");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        receipts = receipts == null ? List.of() : List.copyOf(receipts);
        nextAttemptAt = nextAttemptAt == null ? createdAt : nextAttemptAt;
    }

    /** The platform id of the first message delivered, or null. */
    public String receiptId() {
        return receipts.isEmpty() ? null : receipts.get(0).primaryId();
    }

    /** The entry after {@code u}, as the store will hold it. */
    public OutboxEntry with(OutboxUpdate u, Instant now) {
        return new OutboxEntry(
                id,
                turnId,
                draft,
                u.state(),
                u.attempts(),
                createdAt,
                now,
                u.receipts(),
                u.nextAttemptAt(),
                u.detail());
    }
}
