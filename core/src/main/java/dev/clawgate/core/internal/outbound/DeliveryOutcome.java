package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MessageReceipt;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/** How one delivery ended (SPEC OUT-5), as the outbox recorded it. */
public sealed interface DeliveryOutcome {

    /**
     * What happened to each payload of a delivery, in order (SPEC OUT-5 payloadOutcomes): a mixed batch can be sent,
     * suppressed and failed at once.
     *
     * @param receipt the platform's receipt for a payload it took (sent, or suppressed for want of an identity), else
     *     null
     * @param detail for {@code SUPPRESSED} the stable reason, for {@code FAILED} the failure, else null
     */
    record PayloadOutcome(int part, boolean media, Status status, MessageReceipt receipt, String detail) {
        /** {@code NOT_SENT}: never tried, because an earlier payload failed or the delivery was cut off. */
        public enum Status {
            SENT,
            SUPPRESSED,
            FAILED,
            NOT_SENT
        }
    }

    /** At least one visible platform message. */
    record Sent(List<MessageReceipt> receipts, List<PayloadOutcome> payloads, Set<Capability> dropped)
            implements DeliveryOutcome {}

    /** Nothing shown, on purpose. */
    record Suppressed(SuppressionReason reason) implements DeliveryOutcome {}

    /** Some payloads delivered, then a failure that will not be retried. */
    record PartialFailed(List<MessageReceipt> delivered, String failure, List<PayloadOutcome> payloads)
            implements DeliveryOutcome {}

    /** No payload delivered, and none will be. */
    record Failed(String failure) implements DeliveryOutcome {}

    /**
     * The adapter lacks what the payload needs; decided before any intent was written, so nothing was written or sent.
     */
    record Unsupported(Set<Capability> missing) implements DeliveryOutcome {}

    /** A transient failure: still pending, tried again at {@code at}. */
    record RetryScheduled(Instant at, String failure) implements DeliveryOutcome {}

    /** Whether the platform got it cannot be told: never resent blindly, reported. */
    record UnknownAfterSend(String why) implements DeliveryOutcome {}

    /** Another sender holds the entry (or it is no longer pending): nothing sent here. */
    record NotClaimed() implements DeliveryOutcome {}
}
