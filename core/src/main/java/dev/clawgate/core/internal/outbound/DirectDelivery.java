package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a message's payloads at once, with no outbox row (SPEC OUT-5, OUT-6, OUT-11): the same hooks, payload planning
 * and capability check as the outbox, and a cancelled run's payloads not yet sent are dropped rather than half-sent.
 * Nothing here is retried or replayed.
 */
public final class DirectDelivery implements Delivery {
    private static final Logger log = LoggerFactory.getLogger(DirectDelivery.class);
    private final Payloads payloads;

    public DirectDelivery(Payloads payloads) {
        this.payloads = Objects.requireNonNull(payloads, "payloads");
    }

    @Override
    public DeliveryOutcome deliver(OutboundMessage message, MessageAdapter adapter, CancelToken cancel) {
        if (cancel.isCancelled()) return new DeliveryOutcome.Suppressed(SuppressionReason.RUN_CANCELLED);
        Payloads.Plan plan = payloads.plan(message, adapter);
        if (plan instanceof Payloads.Plan.Suppress s) return new DeliveryOutcome.Suppressed(s.reason());
        Capabilities.Fit fit =
                Capabilities.fit(((Payloads.Plan.Send) plan).parts(), adapter.capabilities(), Durability.BEST_EFFORT);
        if (!fit.fits()) return new DeliveryOutcome.Unsupported(fit.missing());
        List<MessageReceipt> receipts = new ArrayList<>();
        InspectedSends.chunks(message, fit.payloads(), "direct");
        for (OutboundMessage part : fit.payloads()) {
            // OUT-11: the first payload decides; once one is out the reply completes, before that nothing goes
            if (receipts.isEmpty() && cancel.isCancelled())
                return new DeliveryOutcome.Suppressed(SuppressionReason.RUN_CANCELLED);
            long started = dev.clawgate.core.inspect.TurnTrail.current().now();
            try {
                MessageReceipt r = TracedSend.send(
                        part, () -> adapter.send(part, receipts.isEmpty() ? cancel : CancelToken.none()));
                receipts.add(r);
                InspectedSends.sent(started, part, r, 0);
                if (adapter.capabilities().contains(Capability.AFTER_SEND_SUCCESS))
                    AfterSendHooks.afterSendSuccess(adapter, part, r);
            } catch (CancelledException e) {
                // the adapter stopped before any platform I/O (MessageAdapter#send); only the first payload carries the
                // token
                if (receipts.isEmpty()) return new DeliveryOutcome.Suppressed(SuppressionReason.RUN_CANCELLED);
                throw e;
            } catch (DeliveryException e) {
                InspectedSends.failed(started, part, e, 0);
                log.warn(
                        "{} to {} not delivered ({}): {}",
                        message.kind(),
                        message.target().channel(),
                        e.kind(),
                        e.getMessage());
                if (receipts.isEmpty()) return new DeliveryOutcome.Failed(e.getMessage());
                return new DeliveryOutcome.PartialFailed(
                        List.copyOf(receipts),
                        e.getMessage(),
                        PayloadOutcomes.of(fit.payloads(), receipts, e.getMessage()));
            }
        }
        if (receipts.stream().noneMatch(MessageReceipt::hasIdentity)) {
            return new DeliveryOutcome.Suppressed(SuppressionReason.ADAPTER_RETURNED_NO_IDENTITY);
        }
        if (adapter.capabilities().contains(Capability.AFTER_COMMIT))
            AfterSendHooks.afterCommit(adapter, message, receipts);
        return new DeliveryOutcome.Sent(
                List.copyOf(receipts), PayloadOutcomes.of(fit.payloads(), receipts, null), fit.dropped());
    }
}
