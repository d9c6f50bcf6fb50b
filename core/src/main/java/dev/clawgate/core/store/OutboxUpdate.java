package dev.clawgate.core.store;

import dev.clawgate.core.outbound.MessageReceipt;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a delivery attempt learnt about an outbox entry, written in one statement.
 *
 * @param receipts every payload receipt so far (replaces the stored list)
 * @param nextAttemptAt when a {@code PENDING} entry may be tried again; ignored for other states
 */
public record OutboxUpdate(
        OutboxState state, List<MessageReceipt> receipts, String detail, int attempts, Instant nextAttemptAt) {
    public OutboxUpdate {
        Objects.requireNonNull(state, "state");
        receipts = receipts == null ? List.of() : List.copyOf(receipts);
        if (attempts < 0) throw new IllegalArgumentException("attempts must be zero or more, got " + attempts);
    }

    /** {@code entry} moved to {@code state}, its receipts and attempts unchanged. */
    public static OutboxUpdate of(OutboxEntry entry, OutboxState state, String detail) {
        return new OutboxUpdate(state, entry.receipts(), detail, entry.attempts(), entry.nextAttemptAt());
    }
}
