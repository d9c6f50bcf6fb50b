package dev.clawgate.testkit.contract;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Send proofs for two kinds of platform the coming channels meet (SPEC OUT-5, OUT-7, OUT-8):
 *
 * <ul>
 *   <li>{@link #reconcileByClientId}: sends are idempotent by a client id (Matrix's transaction id, an idempotency
 *       key): before a send, reconcile proves it was not sent; after, it finds it with the send's own receipt; the same
 *       payload sent again (a retry after a crash) stays one message.
 *   <li>{@link #withoutMessageIds}: the platform gives no message id (an IRC PRIVMSG, an SMTP relay): the receipt still
 *       has an identity (so the outbox does not suppress the reply as {@code adapter_returned_no_identity}), one per
 *       payload, the same for the same payload, and the platform saw exactly one call.
 * </ul>
 *
 * Each proof drives the adapter's production path and checks the platform's own record.
 */
public final class SendIdentityProofs {
    private SendIdentityProofs() {}

    /**
     * @param message a fresh payload (a new idempotency key) each call
     * @param visibleMessages how many messages the platform shows where {@code message} goes
     */
    public static void reconcileByClientId(
            MessageAdapter adapter, Supplier<OutboundMessage> message, PlatformCallLog log, IntSupplier visibleMessages)
            throws Exception {
        if (!adapter.capabilities().contains(Capability.RECONCILE_UNKNOWN_SEND)) {
            throw new AssertionError("the adapter does not declare reconcileUnknownSend");
        }
        OutboundMessage m = message.get();
        int calls = log.calls().size();
        int shown = visibleMessages.getAsInt();
        Reconciliation before = adapter.reconcileUnknownSend(m, CancelToken.none());
        if (!(before instanceof Reconciliation.NotSent)) {
            throw new AssertionError("reconcile of a payload never sent must prove it was not sent, got " + before);
        }
        if (log.calls().size() == calls) throw new AssertionError("reconcile answered without asking the platform");
        MessageReceipt sent = adapter.send(m, CancelToken.none());
        if (!sent.hasIdentity()) throw new AssertionError("the send's receipt has no identity: " + sent);
        Reconciliation after = adapter.reconcileUnknownSend(m, CancelToken.none());
        if (!(after instanceof Reconciliation.Found found)
                || !Objects.equals(found.receipt().primaryId(), sent.primaryId())) {
            throw new AssertionError("reconcile after the send must find it as " + sent.primaryId() + ", got " + after);
        }
        MessageReceipt again = adapter.send(m, CancelToken.none());
        if (!Objects.equals(again.primaryId(), sent.primaryId())) {
            throw new AssertionError("the same payload sent again is a second message: " + sent.primaryId() + " then "
                    + again.primaryId());
        }
        if (visibleMessages.getAsInt() != shown + 1) {
            throw new AssertionError("the platform shows " + (visibleMessages.getAsInt() - shown)
                    + " messages for one payload sent twice");
        }
    }

    /** @param message a fresh payload each call */
    public static void withoutMessageIds(MessageAdapter adapter, Supplier<OutboundMessage> message, PlatformCallLog log)
            throws Exception {
        OutboundMessage first = message.get();
        OutboundMessage second = message.get();
        int calls = log.calls().size();
        MessageReceipt a = adapter.send(first, CancelToken.none());
        if (log.calls().size() != calls + 1) {
            throw new AssertionError(
                    "one payload made " + (log.calls().size() - calls) + " platform calls, not one (SPEC OUT-8)");
        }
        MessageReceipt b = adapter.send(second, CancelToken.none());
        if (!a.hasIdentity() || !b.hasIdentity()) {
            throw new AssertionError(
                    "a receipt without identity would be suppressed as adapter_returned_no_identity: " + a + ", " + b);
        }
        if (a.platformIds().size() != 1) throw new AssertionError("one payload, one message: " + a.platformIds());
        if (Objects.equals(a.primaryId(), b.primaryId())) {
            throw new AssertionError("two payloads got the same identity " + a.primaryId());
        }
        MessageReceipt again = adapter.send(first, CancelToken.none());
        if (!Objects.equals(again.primaryId(), a.primaryId())) {
            throw new AssertionError(
                    "the identity must follow from the payload (its idempotency key), so a replay is recognised: "
                            + a.primaryId() + " then " + again.primaryId());
        }
    }
}
