package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import java.util.ArrayList;
import java.util.List;

/** What became of each payload of one delivery (SPEC OUT-5 payloadOutcomes), from the receipts the platform gave. */
final class PayloadOutcomes {
    private PayloadOutcomes() {}

    /**
     * Per payload (SPEC OUT-5): taken with an identity is sent, taken without one is suppressed
     * ({@code adapter_returned_no_identity}); the first not taken failed with {@code failure} (when there is one), the
     * rest were never tried.
     */
    static List<DeliveryOutcome.PayloadOutcome> of(
            List<OutboundMessage> parts, List<MessageReceipt> receipts, String failure) {
        List<DeliveryOutcome.PayloadOutcome> out = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            boolean media = !parts.get(i).media().isEmpty();
            if (i < receipts.size()) {
                MessageReceipt r = receipts.get(i);
                out.add(
                        r.hasIdentity()
                                ? new DeliveryOutcome.PayloadOutcome(
                                        i, media, DeliveryOutcome.PayloadOutcome.Status.SENT, r, null)
                                : new DeliveryOutcome.PayloadOutcome(
                                        i,
                                        media,
                                        DeliveryOutcome.PayloadOutcome.Status.SUPPRESSED,
                                        r,
                                        SuppressionReason.ADAPTER_RETURNED_NO_IDENTITY.wireName()));
            } else if (i == receipts.size() && failure != null) {
                out.add(new DeliveryOutcome.PayloadOutcome(
                        i, media, DeliveryOutcome.PayloadOutcome.Status.FAILED, null, failure));
            } else {
                out.add(new DeliveryOutcome.PayloadOutcome(
                        i, media, DeliveryOutcome.PayloadOutcome.Status.NOT_SENT, null, null));
            }
        }
        return out;
    }

    /**
     * The parts the platform took without an identity, for the entry's detail: e.g. "part 2 suppressed:
     * adapter_returned_no_identity".
     */
    static String suppressedParts(List<MessageReceipt> receipts) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < receipts.size(); i++)
            if (!receipts.get(i).hasIdentity()) parts.add(Integer.toString(i + 1));
        return parts.isEmpty()
                ? null
                : "part" + (parts.size() == 1 ? " " : "s ") + String.join(", ", parts) + " suppressed: "
                        + SuppressionReason.ADAPTER_RETURNED_NO_IDENTITY.wireName();
    }
}
