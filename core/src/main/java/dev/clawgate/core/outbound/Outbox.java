package dev.clawgate.core.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.OutboxSettings;
import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends write-ahead outbox entries (SPEC OUT-5, OUT-7, OUT-8, OUT-10). An entry is claimed
 * ({@code sending}, committed) before any platform I/O, so a crash mid-send leaves a trace instead
 * of a resend. Each payload's receipt is recorded as it arrives, so a retry resumes after the
 * payloads the platform already took. Transient failures back off ({@link RetrySchedule}),
 * permanent ones fail at once, ambiguous ones are reconciled with the platform or reported.
 */
public final class Outbox {
    private static final Logger log = LoggerFactory.getLogger(Outbox.class);

    /** Marks an entry an operator (or {@code outbox.resend_unknown}) sent again after an unknown outcome. */
    static final String RESENT_UNKNOWN = "resent after an unknown outcome";
    /** Marks an entry an operator asked to send again: not expired by age, since someone chose to send it now. */
    static final String RESENT_BY_OPERATOR = "resent by the operator";

    private final Store store;
    private final Clock clock;
    private final Payloads payloads;
    private final Supplier<OutboxSettings> settings;
    private final DoubleSupplier random;
    private final OutboxObserver observer;
    /** The delivery cancel token of each run in progress, by turn id (SPEC OUT-11): bounded by the runs in flight. */
    private final ConcurrentHashMap<Long, CancelToken> runs = new ConcurrentHashMap<>();

    public Outbox(Store store, Clock clock, Payloads payloads, Supplier<OutboxSettings> settings, DoubleSupplier random,
                  OutboxObserver observer) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.payloads = Objects.requireNonNull(payloads, "payloads");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.random = Objects.requireNonNull(random, "random");
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    public Outbox(Store store, Clock clock, Payloads payloads, Supplier<OutboxSettings> settings, DoubleSupplier random) {
        this(store, clock, payloads, settings, random, OutboxObserver.NONE);
    }

    public Outbox(Store store, Clock clock) {
        this(store, clock, new Payloads(null), OutboxSettings::defaults, Math::random);
    }

    public Store store() {
        return store;
    }

    public Payloads payloads() {
        return payloads;
    }

    /**
     * Sends one {@code pending} entry through {@code adapter}. An entry someone else already
     * claimed (or that is no longer pending) is left alone (SPEC OUT-12). {@code cancel} (the run's
     * {@link RunDeliveries#cancel()}) reaches the first payload's send and media loading; a cancel
     * before anything of the entry reached the platform suppresses it as {@code run_cancelled}
     * (SPEC OUT-11); once the first payload is out, the rest follow, so a reply is never half-sent.
     */
    public DeliveryOutcome deliver(OutboxEntry entry, MessageAdapter adapter, CancelToken cancel) {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(adapter, "adapter");
        Objects.requireNonNull(cancel, "cancel");
        if (cancel.isCancelled() && entry.receipts().isEmpty()) {
            if (!store.claimOutbox(entry.id())) return new DeliveryOutcome.NotClaimed();
            return cancelled(entry, entry.receipts(), entry.attempts(), cancel.reason());
        }
        Failpoints.hit(Failpoints.OUTBOX_BEFORE_CLAIM);
        if (!store.claimOutbox(entry.id())) {
            log.info("outbox {} (turn {}) is not pending; not sent again", entry.id(), entry.turnId());
            return new DeliveryOutcome.NotClaimed();
        }
        return sendClaimed(entry, adapter, cancel);
    }

    /** Sends with the cancel token of the entry's run when that run is still in progress (a retry), else uncancellable. */
    public DeliveryOutcome deliver(OutboxEntry entry, MessageAdapter adapter) {
        return deliver(entry, adapter, cancelOf(entry.turnId()));
    }

    /**
     * Ties the deliveries of the run answering {@code turnId} to the run's token (SPEC OUT-11): an abort
     * (anything but a shutdown) cancels the returned {@link RunDeliveries#cancel()}, which the run's sends
     * and this outbox's retries of its entries go with, and suppresses the run's entries still waiting
     * for a retry, except one already partly delivered.
     */
    public RunDeliveries watch(long turnId, CancelToken run) {
        CancelToken deliveries = new CancelToken();
        runs.put(turnId, deliveries);
        AutoCloseable follow = run.onCancel(() -> {
            String why = run.reason();
            // a shutdown leaves what the run committed pending: the restart sends it (SPEC OUT-7)
            if (RunHandle.REASON_SHUTDOWN.equals(why)) return;
            deliveries.cancel(why);
            // the canceller may hold the dispatcher's lock: the store work runs on its own thread
            Thread.ofVirtual().name("outbox-cancel-" + turnId).start(() -> cancelWaiting(turnId, why));
        });
        return new RunDeliveries(turnId, deliveries, () -> {
            try {
                follow.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not release the run's cancel listener", e);
            }
            runs.remove(turnId, deliveries);
        });
    }

    /** The delivery cancel token of the run answering {@code turnId} while it runs, else one that never fires. */
    public CancelToken cancelOf(long turnId) {
        CancelToken t = runs.get(turnId);
        return t == null ? CancelToken.none() : t;
    }

    /**
     * Suppresses the entries of {@code turnId} still waiting to be sent (SPEC OUT-11): its reply and
     * {@code message_send}s a retry would send. One already partly delivered is left to finish, one a
     * sender holds right now is its sender's (that send goes with the run's token), and an error
     * reply (how the aborted turn ended, e.g. its time budget) is not the run's work and goes out.
     * Returns how many were cancelled.
     */
    public int cancelWaiting(long turnId, String why) {
        int cancelled = 0;
        try {
            for (OutboxEntry e : store.outboxByState(OutboxState.PENDING)) {
                if (e.turnId() != turnId || e.draft().kind() == OutboundMessage.Kind.ERROR || !e.receipts().isEmpty()) continue;
                if (!store.claimOutbox(e.id())) continue;
                cancelled(e, e.receipts(), e.attempts(), why);
                cancelled++;
            }
        } catch (RuntimeException storeDown) {
            // the entries stay pending and go out on their retry: a lost cancel, never a lost or doubled reply
            log.warn("turn {}: could not cancel its waiting deliveries: {}", turnId, storeDown.toString());
        }
        return cancelled;
    }

    private DeliveryOutcome cancelled(OutboxEntry entry, List<MessageReceipt> receipts, int attempts, String why) {
        String detail = SuppressionReason.RUN_CANCELLED.wireName() + (why == null ? "" : ": " + why);
        log.info("outbox {} (turn {}) cancelled before it reached the platform: {}", entry.id(), entry.turnId(), detail);
        record(entry, new OutboxUpdate(OutboxState.SUPPRESSED, receipts, detail, attempts, entry.nextAttemptAt()));
        return new DeliveryOutcome.Suppressed(SuppressionReason.RUN_CANCELLED);
    }

    private DeliveryOutcome sendClaimed(OutboxEntry entry, MessageAdapter adapter, CancelToken cancel) {
        OutboundMessage reply = entry.draft().message(entry.turnId());
        Payloads.Plan plan = payloads.plan(reply, adapter);
        if (plan instanceof Payloads.Plan.Suppress s) {
            String detail = s.reason().wireName() + (s.detail() == null ? "" : ": " + s.detail());
            log.info("outbox {} (turn {}) suppressed: {}", entry.id(), entry.turnId(), detail);
            record(entry, OutboxUpdate.of(entry, OutboxState.SUPPRESSED, detail));
            return new DeliveryOutcome.Suppressed(s.reason());
        }
        List<OutboundMessage> parts = ((Payloads.Plan.Send) plan).parts();
        Capabilities.Fit fit = Capabilities.fit(parts, adapter.capabilities(), Durability.BEST_EFFORT);
        if (!fit.fits()) {
            // the intent was written when the adapter could carry it: a config change took that away
            String why = "unsupported by the channel now: " + names(fit.missing());
            record(entry, OutboxUpdate.of(entry, OutboxState.FAILED, why));
            return new DeliveryOutcome.Failed(why);
        }
        List<MessageReceipt> receipts = new ArrayList<>(entry.receipts());
        int attempts = entry.attempts();
        for (int i = receipts.size(); i < fit.payloads().size(); i++) {
            OutboundMessage part = fit.payloads().get(i);
            // SPEC OUT-11: until a first payload is out an abort cancels the delivery; after that the rest follow
            boolean first = receipts.isEmpty();
            if (first && cancel.isCancelled()) return cancelled(entry, receipts, attempts, cancel.reason());
            MessageReceipt receipt;
            try {
                receipt = adapter.send(part, first ? cancel : CancelToken.none());
            } catch (CancelledException e) {
                // the adapter stopped before any platform I/O (MessageAdapter#send)
                if (first) return cancelled(entry, receipts, attempts, e.getMessage());
                log.error("outbox {} (turn {}): adapter cancelled a send it was not asked to; marked unknown_after_send", entry.id(),
                        entry.turnId(), e);
                return unknown(entry, receipts, attempts, "adapter error: " + e.getClass().getSimpleName());
            } catch (DeliveryException e) {
                boolean aborted = first && cancel.isCancelled();
                if (aborted && e.kind() != DeliveryException.Kind.AMBIGUOUS) return cancelled(entry, receipts, attempts, cancel.reason());
                Reconciliation r = e.kind() == DeliveryException.Kind.AMBIGUOUS ? reconcile(entry, adapter, part) : null;
                if (r instanceof Reconciliation.Found f) {
                    log.info("outbox {} (turn {}): the platform has part {} after all", entry.id(), entry.turnId(), part.part());
                    receipt = f.receipt();
                } else if (r == null) {
                    return failed(entry, receipts, attempts, e, fit.payloads());
                } else if (r instanceof Reconciliation.NotSent && aborted) {
                    return cancelled(entry, receipts, attempts, cancel.reason());
                } else if (r instanceof Reconciliation.NotSent) {
                    return failed(entry, receipts, attempts, new DeliveryException(e.getMessage() + " (the platform confirms it has no such"
                            + " message)", DeliveryException.Kind.TRANSIENT, e.retryAfter(), e), fit.payloads());
                } else {
                    log.warn("outbox {} (turn {}) to {}: the send may have reached the platform ({}); not resent", entry.id(),
                            entry.turnId(), entry.draft().channel(), e.getMessage());
                    return unknown(entry, receipts, attempts, "ambiguous failure: " + e.getMessage());
                }
            } catch (RuntimeException e) {
                // the adapter broke mid-send: whether the platform got the message is unknown, so it is never resent blindly
                log.error("outbox {} (turn {}): adapter failed mid-send; marked unknown_after_send", entry.id(), entry.turnId(), e);
                return unknown(entry, receipts, attempts, "adapter error: " + e.getClass().getSimpleName());
            }
            Failpoints.hit(Failpoints.OUTBOX_AFTER_SEND);
            receipts.add(receipt);
            if (adapter.capabilities().contains(Capability.AFTER_SEND_SUCCESS)) AfterSendHooks.afterSendSuccess(adapter, part, receipt);
            if (i < fit.payloads().size() - 1) {
                record(entry, new OutboxUpdate(OutboxState.SENDING, receipts, null, attempts, entry.nextAttemptAt()));
            }
        }
        if (receipts.stream().noneMatch(MessageReceipt::hasIdentity)) {
            record(entry, new OutboxUpdate(OutboxState.SUPPRESSED, receipts,
                    SuppressionReason.ADAPTER_RETURNED_NO_IDENTITY.wireName(), attempts, entry.nextAttemptAt()));
            return new DeliveryOutcome.Suppressed(SuppressionReason.ADAPTER_RETURNED_NO_IDENTITY);
        }
        boolean resent = entry.detail() != null && entry.detail().startsWith(RESENT_UNKNOWN);
        String detail = resent ? entry.detail() : join(fit.dropped().isEmpty() ? null : "dropped (channel lacks them): " + names(fit.dropped()),
                PayloadOutcomes.suppressedParts(receipts));
        record(entry, new OutboxUpdate(resent ? OutboxState.POSSIBLY_DUPLICATED : OutboxState.SENT, receipts, detail,
                attempts, entry.nextAttemptAt()));
        if (adapter.capabilities().contains(Capability.AFTER_COMMIT)) AfterSendHooks.afterCommit(adapter, reply, receipts);
        return new DeliveryOutcome.Sent(List.copyOf(receipts), PayloadOutcomes.of(fit.payloads(), receipts, null), fit.dropped());
    }

    /**
     * Asks the platform about an ambiguous send (SPEC OUT-7): what it found, or {@link Reconciliation.Unknown}
     * when the adapter cannot look or the look failed.
     */
    static Reconciliation reconcile(OutboxEntry entry, MessageAdapter adapter, OutboundMessage part) {
        if (!adapter.capabilities().contains(Capability.RECONCILE_UNKNOWN_SEND)) {
            return new Reconciliation.Unknown("the channel cannot look up sent messages");
        }
        try {
            return Objects.requireNonNull(adapter.reconcileUnknownSend(part, CancelToken.none()), "reconcileUnknownSend returned null");
        } catch (DeliveryException e) {
            log.warn("outbox {} (turn {}): reconcile failed: {}", entry.id(), entry.turnId(), e.getMessage());
            return new Reconciliation.Unknown("reconcile failed: " + e.getMessage());
        }
    }

    private DeliveryOutcome failed(OutboxEntry entry, List<MessageReceipt> receipts, int attempts, DeliveryException e,
                                   List<OutboundMessage> parts) {
        String why = e.getMessage();
        String channel = entry.draft().channel();
        if (e.permanent()) {
            log.warn("outbox {} (turn {}) to {} failed permanently: {}", entry.id(), entry.turnId(), channel, why);
            return giveUp(entry, receipts, attempts, "permanent: " + why, parts);
        }
        int failures = attempts + 1;
        Optional<Instant> next = settings.get().retries().next(failures, clock.instant(), e.retryAfter(), random.getAsDouble());
        if (next.isEmpty()) {
            log.warn("outbox {} (turn {}) to {}: giving up after {} failed attempts: {}", entry.id(), entry.turnId(), channel, failures, why);
            return giveUp(entry, receipts, failures, "gave up after " + failures + " attempts: " + why, parts);
        }
        log.warn("outbox {} (turn {}) to {} failed ({}); retry {} at {}", entry.id(), entry.turnId(), channel, why, failures, next.get());
        record(entry, new OutboxUpdate(OutboxState.PENDING, receipts, why, failures, next.get()));
        return new DeliveryOutcome.RetryScheduled(next.get(), why);
    }

    private DeliveryOutcome giveUp(OutboxEntry entry, List<MessageReceipt> receipts, int attempts, String why, List<OutboundMessage> parts) {
        if (receipts.isEmpty()) {
            record(entry, new OutboxUpdate(OutboxState.FAILED, receipts, why, attempts, entry.nextAttemptAt()));
            return new DeliveryOutcome.Failed(why);
        }
        record(entry, new OutboxUpdate(OutboxState.PARTIAL_FAILED, receipts, why, attempts, entry.nextAttemptAt()));
        return new DeliveryOutcome.PartialFailed(List.copyOf(receipts), why, PayloadOutcomes.of(parts, receipts, why));
    }

    private DeliveryOutcome unknown(OutboxEntry entry, List<MessageReceipt> receipts, int attempts, String why) {
        record(entry, new OutboxUpdate(OutboxState.UNKNOWN_AFTER_SEND, receipts, why, attempts, entry.nextAttemptAt()));
        return new DeliveryOutcome.UnknownAfterSend(why);
    }

    /** Writes {@code u} for {@code entry} and tells the observer (SPEC OP-5); the only way this outbox changes an entry. */
    void record(OutboxEntry entry, OutboxUpdate u) {
        store.updateOutbox(entry.id(), u);
        try {
            observer.recorded(entry, u.state());
        } catch (RuntimeException e) {
            log.warn("outbox observer failed on entry {}; the delivery goes on: {}", entry.id(), e.toString());
        }
    }

    private static String join(String a, String b) {
        return a == null ? b : b == null ? a : a + "; " + b;
    }

    static String names(Set<Capability> caps) {
        return String.join(", ", caps.stream().map(Capability::specName).sorted().toList());
    }

    /**
     * An operator's resend ({@code clawgate outbox resend}): a failed, expired, partly failed or
     * unknown entry goes back to pending, due now; the running gateway (or the next start) sends
     * it, resuming after the payloads already delivered. A resent unknown entry ends
     * {@code possibly_duplicated}, since the first send may have arrived.
     *
     * @throws IllegalArgumentException when there is no such entry, or it is pending, sending or sent
     */
    public OutboxEntry resend(long entryId) {
        OutboxEntry e = store.outboxEntry(entryId).orElseThrow(() -> new IllegalArgumentException("there is no outbox entry " + entryId));
        String detail = switch (e.state()) {
            case UNKNOWN_AFTER_SEND -> RESENT_UNKNOWN + " (" + RESENT_BY_OPERATOR + ")";
            case FAILED, EXPIRED, PARTIAL_FAILED -> RESENT_BY_OPERATOR;
            default -> throw new IllegalArgumentException("outbox entry " + entryId + " is " + e.state().wireName()
                    + "; only failed, partial_failed, expired and unknown_after_send entries can be resent");
        };
        record(e, new OutboxUpdate(OutboxState.PENDING, e.receipts(), detail, 0, clock.instant()));
        return store.outboxEntry(entryId).orElseThrow();
    }

    /** True for an entry someone chose to send again: not expired by age. */
    static boolean resentOnPurpose(OutboxEntry e) {
        return e.detail() != null && (e.detail().startsWith(RESENT_BY_OPERATOR) || e.detail().contains(RESENT_BY_OPERATOR));
    }

    /**
     * How long a new entry is left to the turn that recorded it: the turn claims and sends it at once, and
     * the retry pass taking it meanwhile would only race it (the claim keeps it to one send, but the turn
     * would lose its own delivery, e.g. a preview's finalization). An entry still untried after this was
     * orphaned by its turn and is sent by the retry pass.
     */
    static final Duration OWN_DELIVERY_GRACE = Duration.ofSeconds(30);

    /** Sends the pending entries whose retry is due, paced per channel; returns how many were tried. */
    public int retryDue(Function<String, Optional<MessageAdapter>> adapters, Pacer pacer) {
        int tried = 0;
        Instant now = clock.instant();
        for (OutboxEntry e : store.outboxDue(now, 500)) {
            if (e.attempts() == 0 && !resentOnPurpose(e) && e.createdAt().isAfter(now.minus(OWN_DELIVERY_GRACE))) continue;
            Optional<MessageAdapter> adapter = adapters.apply(e.draft().channel());
            if (adapter.isEmpty()) continue;
            pacer.await(e.draft().channel());
            deliver(e, adapter.get(), cancelOf(e.turnId()));
            tried++;
        }
        return tried;
    }

    /**
     * The start-up pass (SPEC OUT-7), run before any turn can deliver; see {@link OutboxRecovery}.
     */
    public OutboxRecovery.Result recover(Function<String, Optional<MessageAdapter>> adapters, Pacer pacer) {
        return new OutboxRecovery(this, clock, settings.get()).run(adapters, pacer);
    }
}
