package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import java.util.List;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the parts of one claimed entry and says how it ended, as a {@link SendVerdict}. Each receipt is added to
 * {@code receipts} (and recorded while parts remain) as it arrives, so a retry resumes after it.
 */
final class DeliveryAttempt {
    private static final Logger log = LoggerFactory.getLogger(Outbox.class);

    private final OutboxEntry entry;
    private final MessageAdapter adapter;
    private final CancelToken cancel;
    private final List<MessageReceipt> receipts;
    private final BiConsumer<OutboxEntry, OutboxUpdate> record;

    DeliveryAttempt(
            OutboxEntry entry,
            MessageAdapter adapter,
            CancelToken cancel,
            List<MessageReceipt> receipts,
            BiConsumer<OutboxEntry, OutboxUpdate> record) {
        this.entry = entry;
        this.adapter = adapter;
        this.cancel = cancel;
        this.receipts = receipts;
        this.record = record;
    }

    SendVerdict run(Payloads payloads) {
        OutboundMessage reply = entry.draft().message(entry.turnId());
        Payloads.Plan plan = payloads.plan(reply, adapter);
        if (plan instanceof Payloads.Plan.Suppress s) {
            String detail = s.reason().wireName() + (s.detail() == null ? "" : ": " + s.detail());
            log.info("outbox {} (turn {}) suppressed: {}", entry.id(), entry.turnId(), detail);
            return new SendVerdict.Suppressed(s.reason(), detail);
        }
        List<OutboundMessage> parts = ((Payloads.Plan.Send) plan).parts();
        Capabilities.Fit fit = Capabilities.fit(parts, adapter.capabilities(), Durability.BEST_EFFORT);
        if (!fit.fits()) {
            // the intent was written when the adapter could carry it: a config change took that away
            return new SendVerdict.Unfit("unsupported by the channel now: " + Outbox.names(fit.missing()));
        }
        InspectedSends.chunks(reply, fit.payloads(), "outbox");
        for (int i = receipts.size(); i < fit.payloads().size(); i++) {
            OutboundMessage part = fit.payloads().get(i);
            // SPEC OUT-11: until a first payload is out an abort cancels the delivery; after that the rest follow
            boolean first = receipts.isEmpty();
            if (first && cancel.isCancelled()) return new SendVerdict.Cancelled(cancel.reason());
            SendVerdict failure = send(part, first, fit.payloads());
            if (failure != null) return failure;
            if (i < fit.payloads().size() - 1) {
                record.accept(
                        entry,
                        new OutboxUpdate(OutboxState.SENDING, receipts, null, entry.attempts(), entry.nextAttemptAt()));
            }
        }
        if (receipts.stream().noneMatch(MessageReceipt::hasIdentity)) {
            SuppressionReason none = SuppressionReason.ADAPTER_RETURNED_NO_IDENTITY;
            return new SendVerdict.Suppressed(none, none.wireName());
        }
        return new SendVerdict.Delivered(reply, fit);
    }

    /** Sends one part; null when its receipt was added, else how the entry ends. */
    private SendVerdict send(OutboundMessage part, boolean first, List<OutboundMessage> all) {
        MessageReceipt receipt;
        long started = dev.clawgate.core.inspect.TurnTrail.current().now();
        try {
            receipt = TracedSend.send(part, () -> adapter.send(part, first ? cancel : CancelToken.none()));
        } catch (CancelledException e) {
            // the adapter stopped before any platform I/O (MessageAdapter#send)
            if (first) return new SendVerdict.Cancelled(e.getMessage());
            log.error(
                    "outbox {} (turn {}): adapter cancelled a send it was not asked to; marked unknown_after_send",
                    entry.id(),
                    entry.turnId(),
                    e);
            return new SendVerdict.Unknown("adapter error: " + e.getClass().getSimpleName());
        } catch (DeliveryException e) {
            InspectedSends.failed(started, part, e, entry.id());
            boolean aborted = first && cancel.isCancelled();
            if (e.kind() != DeliveryException.Kind.AMBIGUOUS) {
                return aborted ? new SendVerdict.Cancelled(cancel.reason()) : new SendVerdict.Failed(e, all);
            }
            switch (Outbox.reconcile(entry, adapter, part)) {
                case Reconciliation.Found f -> {
                    log.info(
                            "outbox {} (turn {}): the platform has part {} after all",
                            entry.id(),
                            entry.turnId(),
                            part.part());
                    receipt = f.receipt();
                }
                case Reconciliation.NotSent n -> {
                    return aborted
                            ? new SendVerdict.Cancelled(cancel.reason())
                            : new SendVerdict.Failed(
                                    new DeliveryException(
                                            e.getMessage() + " (the platform confirms it has no such message)",
                                            DeliveryException.Kind.TRANSIENT,
                                            e.retryAfter(),
                                            e),
                                    all);
                }
                case Reconciliation.Unknown u -> {
                    log.warn(
                            "outbox {} (turn {}) to {}: the send may have reached the platform ({}); not resent",
                            entry.id(),
                            entry.turnId(),
                            entry.draft().channel(),
                            e.getMessage());
                    return new SendVerdict.Unknown("ambiguous failure: " + e.getMessage());
                }
            }
        } catch (RuntimeException e) {
            // the adapter broke mid-send: whether the platform got it is unknown, so it is never resent blindly
            log.error(
                    "outbox {} (turn {}): adapter failed mid-send; marked unknown_after_send",
                    entry.id(),
                    entry.turnId(),
                    e);
            return new SendVerdict.Unknown("adapter error: " + e.getClass().getSimpleName());
        }
        Failpoints.hit(Failpoints.OUTBOX_AFTER_SEND);
        receipts.add(receipt);
        InspectedSends.sent(started, part, receipt, entry.id());
        if (adapter.capabilities().contains(Capability.AFTER_SEND_SUCCESS)) {
            AfterSendHooks.afterSendSuccess(adapter, part, receipt);
        }
        return null;
    }
}
