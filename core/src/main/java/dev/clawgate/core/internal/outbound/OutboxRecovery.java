package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.OutboxSettings;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbox's start-up pass (SPEC OUT-7), run before any turn can deliver:
 *
 * <ul>
 *   <li>entries a dead process left {@code sending} are asked about on the platform when the channel can reconcile
 *       (found: acknowledged, never resent; proven absent: sent); otherwise they become {@code unknown_after_send} and
 *       are reported, not resent, unless {@code outbox.resend_unknown} asks for one resend, marked
 *       {@code possibly_duplicated};
 *   <li>{@code pending} entries older than {@code outbox.max_age} become {@code expired};
 *   <li>the rest that are due are sent, paced per channel; those of channels this process does not run stay pending.
 * </ul>
 */
public final class OutboxRecovery {
    private static final Logger log = LoggerFactory.getLogger(OutboxRecovery.class);

    /** What one pass did, for the start-up log, {@code clawgate outbox} and tests. */
    public record Result(
            int sent,
            int failed,
            int stillPending,
            int expired,
            int unknownAfterSend,
            int reconciled,
            int resentUnknown) {}

    private final Outbox outbox;
    private final Store store;
    private final Clock clock;
    private final OutboxSettings settings;

    OutboxRecovery(Outbox outbox, Clock clock, OutboxSettings settings) {
        this.outbox = outbox;
        this.store = outbox.store();
        this.clock = clock;
        this.settings = settings;
    }

    Result run(Function<String, Optional<MessageAdapter>> adapters, Pacer pacer) {
        int unknown = 0, reconciled = 0, resent = 0;
        List<Long> unknownTurns = new ArrayList<>();
        for (OutboxEntry e : store.outbox().byState(OutboxState.SENDING)) {
            switch (interrupted(e, adapters.apply(e.draft().channel()))) {
                case RECONCILED -> reconciled++;
                case RESEND -> resent++;
                case UNKNOWN -> {
                    unknown++;
                    unknownTurns.add(e.turnId());
                }
            }
        }
        if (unknown > 0) {
            log.warn(
                    "outbox: {} repl{} may or may not have reached the platform (unknown_after_send, not resent; see "
                            + "`clawgate outbox`):"
                            + " turns {}",
                    unknown,
                    unknown == 1 ? "y" : "ies",
                    unknownTurns);
        }
        Instant cutoff = clock.instant().minus(settings.maxAge());
        int sent = 0, failed = 0, pending = 0, expired = 0;
        for (OutboxEntry e : store.outbox().byState(OutboxState.PENDING)) {
            if (e.createdAt().isBefore(cutoff) && !Outbox.resentOnPurpose(e)) {
                outbox.record(
                        e, OutboxUpdate.of(e, OutboxState.EXPIRED, "older than outbox.max_age " + settings.maxAge()));
                expired++;
                continue;
            }
            Optional<MessageAdapter> adapter = adapters.apply(e.draft().channel());
            if (adapter.isEmpty() || e.nextAttemptAt().isAfter(clock.instant())) {
                pending++;
                continue;
            }
            pacer.await(e.draft().channel());
            switch (outbox.deliver(e, adapter.get())) {
                case DeliveryOutcome.Sent s -> sent++;
                case DeliveryOutcome.Suppressed s -> sent++;
                case DeliveryOutcome.RetryScheduled r -> pending++;
                case DeliveryOutcome.NotClaimed n -> pending++;
                default -> failed++;
            }
        }
        if (expired > 0) {
            log.warn(
                    "outbox: {} stale repl{} expired, not sent (older than {})",
                    expired,
                    expired == 1 ? "y" : "ies",
                    settings.maxAge());
        }
        Result r = new Result(sent, failed, pending, expired, unknown, reconciled, resent);
        if (!r.equals(new Result(0, 0, 0, 0, 0, 0, 0))) log.info("outbox recovery: {}", r);
        return r;
    }

    private enum Interrupted {
        RECONCILED,
        RESEND,
        UNKNOWN
    }

    private Interrupted interrupted(OutboxEntry e, Optional<MessageAdapter> adapter) {
        if (adapter.isPresent() && adapter.get().capabilities().contains(Capability.RECONCILE_UNKNOWN_SEND)) {
            OutboundMessage part = nextPart(e, adapter.get());
            if (part != null) {
                switch (Outbox.reconcile(e, adapter.get(), part)) {
                    case Reconciliation.Found f -> {
                        List<MessageReceipt> receipts = new ArrayList<>(e.receipts());
                        receipts.add(f.receipt());
                        boolean more = part.part() + 1 < partCount(e, adapter.get());
                        // the rest of a multi-part reply is still to send; the found part never is again
                        outbox.record(
                                e,
                                new OutboxUpdate(
                                        more ? OutboxState.PENDING : OutboxState.SENT,
                                        receipts,
                                        "reconciled after a restart",
                                        e.attempts(),
                                        clock.instant()));
                        log.info(
                                "outbox {} (turn {}): found on the platform after the restart; not resent",
                                e.id(),
                                e.turnId());
                        return Interrupted.RECONCILED;
                    }
                    case Reconciliation.NotSent n -> {
                        outbox.record(
                                e,
                                new OutboxUpdate(
                                        OutboxState.PENDING,
                                        e.receipts(),
                                        "the platform confirms it never got it; sending",
                                        e.attempts(),
                                        clock.instant()));
                        return Interrupted.RECONCILED;
                    }
                    case Reconciliation.Unknown u ->
                        log.warn("outbox {} (turn {}): reconcile could not tell: {}", e.id(), e.turnId(), u.why());
                }
            }
        }
        if (settings.resendUnknown()) {
            outbox.record(
                    e,
                    new OutboxUpdate(
                            OutboxState.PENDING,
                            e.receipts(),
                            Outbox.RESENT_UNKNOWN + " (outbox.resend_unknown)",
                            e.attempts(),
                            clock.instant()));
            log.warn(
                    "outbox {} (turn {}): outcome unknown; resending once as outbox.resend_unknown asks "
                            + "(possibly_duplicated)",
                    e.id(),
                    e.turnId());
            return Interrupted.RESEND;
        }
        outbox.record(
                e, OutboxUpdate.of(e, OutboxState.UNKNOWN_AFTER_SEND, "process stopped during the send; not resent"));
        return Interrupted.UNKNOWN;
    }

    private OutboundMessage nextPart(OutboxEntry e, MessageAdapter adapter) {
        if (!(outbox.payloads().plan(e.draft().message(e.turnId()), adapter) instanceof Payloads.Plan.Send send))
            return null;
        return e.receipts().size() < send.parts().size()
                ? send.parts().get(e.receipts().size())
                : null;
    }

    private int partCount(OutboxEntry e, MessageAdapter adapter) {
        return outbox.payloads().plan(e.draft().message(e.turnId()), adapter) instanceof Payloads.Plan.Send send
                ? send.parts().size()
                : 0;
    }
}
