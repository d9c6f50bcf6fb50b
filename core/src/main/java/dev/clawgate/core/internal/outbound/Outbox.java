package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.OutboxSettings;
import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
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
 * Sends write-ahead outbox entries (SPEC OUT-5, OUT-7, OUT-8, OUT-10). An entry is claimed ({@code sending}, committed)
 * before any platform I/O, so a crash mid-send leaves a trace instead of a resend. Each payload's receipt is recorded
 * as it arrives, so a retry resumes after the payloads the platform already took. Transient failures back off
 * ({@link RetrySchedule}), permanent ones fail at once, ambiguous ones are reconciled with the platform or reported.
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
    /**
     * Where aborted runs' waiting entries are suppressed; a dropped task leaves them to their retry (a lost cancel).
     */
    private final dev.clawgate.core.run.BackgroundWork cancels =
            new dev.clawgate.core.run.BackgroundWork("outbox-cancel", 4, 1024);

    public Outbox(
            Store store,
            Clock clock,
            Payloads payloads,
            Supplier<OutboxSettings> settings,
            DoubleSupplier random,
            OutboxObserver observer) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.payloads = Objects.requireNonNull(payloads, "payloads");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.random = Objects.requireNonNull(random, "random");
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    public Outbox(
            Store store, Clock clock, Payloads payloads, Supplier<OutboxSettings> settings, DoubleSupplier random) {
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
     * Sends one {@code pending} entry through {@code adapter}. An entry someone else already claimed (or that is no
     * longer pending) is left alone (SPEC OUT-12). {@code cancel} (the run's {@link RunDeliveries#cancel()}) reaches
     * the first payload's send and media loading; a cancel before anything of the entry reached the platform suppresses
     * it as {@code run_cancelled} (SPEC OUT-11); once the first payload is out, the rest follow, so a reply is never
     * half-sent.
     */
    public DeliveryOutcome deliver(OutboxEntry entry, MessageAdapter adapter, CancelToken cancel) {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(adapter, "adapter");
        Objects.requireNonNull(cancel, "cancel");
        if (cancel.isCancelled() && entry.receipts().isEmpty()) {
            if (!store.outbox().claim(entry.id())) return new DeliveryOutcome.NotClaimed();
            return cancelled(entry, entry.receipts(), entry.attempts(), cancel.reason());
        }
        Failpoints.hit(Failpoints.OUTBOX_BEFORE_CLAIM);
        if (!store.outbox().claim(entry.id())) {
            log.info("outbox {} (turn {}) is not pending; not sent again", entry.id(), entry.turnId());
            return new DeliveryOutcome.NotClaimed();
        }
        return sendClaimed(entry, adapter, cancel);
    }

    /**
     * Sends with the cancel token of the entry's run when that run is still in progress (a retry), else uncancellable.
     */
    public DeliveryOutcome deliver(OutboxEntry entry, MessageAdapter adapter) {
        return deliver(entry, adapter, cancelOf(entry.turnId()));
    }

    /**
     * Ties the deliveries of the run answering {@code turnId} to the run's token (SPEC OUT-11): an abort (anything but
     * a shutdown) cancels the returned {@link RunDeliveries#cancel()}, which the run's sends and this outbox's retries
     * of its entries go with, and suppresses the run's entries still waiting for a retry, except one already partly
     * delivered.
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
            cancels.execute(() -> cancelWaiting(turnId, why));
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
     * {@code message_send}s a retry would send. One already partly delivered is left to finish, one a sender holds
     * right now is its sender's (that send goes with the run's token), and an error reply (how the aborted turn ended,
     * e.g. its time budget) is not the run's work and goes out. Returns how many were cancelled.
     */
    public int cancelWaiting(long turnId, String why) {
        int cancelled = 0;
        try {
            for (OutboxEntry e : store.outbox().byState(OutboxState.PENDING)) {
                if (e.turnId() != turnId
                        || e.draft().kind() == OutboundMessage.Kind.ERROR
                        || !e.receipts().isEmpty()) continue;
                if (!store.outbox().claim(e.id())) continue;
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
        log.info(
                "outbox {} (turn {}) cancelled before it reached the platform: {}", entry.id(), entry.turnId(), detail);
        record(entry, new OutboxUpdate(OutboxState.SUPPRESSED, receipts, detail, attempts, entry.nextAttemptAt()));
        return new DeliveryOutcome.Suppressed(SuppressionReason.RUN_CANCELLED);
    }

    /** Sends a claimed entry; the one switch below turns how it ended into its new state. */
    private DeliveryOutcome sendClaimed(OutboxEntry entry, MessageAdapter adapter, CancelToken cancel) {
        List<MessageReceipt> receipts = new ArrayList<>(entry.receipts());
        int attempts = entry.attempts();
        SendVerdict verdict = new DeliveryAttempt(entry, adapter, cancel, receipts, this::record).run(payloads);
        return switch (verdict) {
            case SendVerdict.Suppressed s -> {
                record(
                        entry,
                        new OutboxUpdate(
                                OutboxState.SUPPRESSED, receipts, s.detail(), attempts, entry.nextAttemptAt()));
                yield new DeliveryOutcome.Suppressed(s.reason());
            }
            case SendVerdict.Unfit u -> {
                record(entry, OutboxUpdate.of(entry, OutboxState.FAILED, u.why()));
                yield new DeliveryOutcome.Failed(u.why());
            }
            case SendVerdict.Cancelled c -> cancelled(entry, receipts, attempts, c.why());
            case SendVerdict.Failed f -> failed(entry, receipts, attempts, f.error(), f.parts());
            case SendVerdict.Unknown u -> unknown(entry, receipts, attempts, u.why());
            case SendVerdict.Delivered d -> delivered(entry, adapter, receipts, d);
        };
    }

    private DeliveryOutcome delivered(
            OutboxEntry entry, MessageAdapter adapter, List<MessageReceipt> receipts, SendVerdict.Delivered d) {
        Capabilities.Fit fit = d.fit();
        boolean resent = entry.detail() != null && entry.detail().startsWith(RESENT_UNKNOWN);
        String dropped = fit.dropped().isEmpty() ? null : "dropped (channel lacks them): " + names(fit.dropped());
        String detail = resent ? entry.detail() : join(dropped, PayloadOutcomes.suppressedParts(receipts));
        record(
                entry,
                new OutboxUpdate(
                        resent ? OutboxState.POSSIBLY_DUPLICATED : OutboxState.SENT,
                        receipts,
                        detail,
                        entry.attempts(),
                        entry.nextAttemptAt()));
        if (adapter.capabilities().contains(Capability.AFTER_COMMIT)) {
            AfterSendHooks.afterCommit(adapter, d.reply(), receipts);
        }
        return new DeliveryOutcome.Sent(
                List.copyOf(receipts), PayloadOutcomes.of(fit.payloads(), receipts, null), fit.dropped());
    }

    /**
     * Asks the platform about an ambiguous send (SPEC OUT-7): what it found, or {@link Reconciliation.Unknown} when the
     * adapter cannot look or the look failed.
     */
    static Reconciliation reconcile(OutboxEntry entry, MessageAdapter adapter, OutboundMessage part) {
        if (!adapter.capabilities().contains(Capability.RECONCILE_UNKNOWN_SEND)) {
            return new Reconciliation.Unknown("the channel cannot look up sent messages");
        }
        try {
            return Objects.requireNonNull(
                    adapter.reconcileUnknownSend(part, CancelToken.none()), "reconcileUnknownSend returned null");
        } catch (DeliveryException e) {
            log.warn("outbox {} (turn {}): reconcile failed: {}", entry.id(), entry.turnId(), e.getMessage());
            return new Reconciliation.Unknown("reconcile failed: " + e.getMessage());
        }
    }

    private DeliveryOutcome failed(
            OutboxEntry entry,
            List<MessageReceipt> receipts,
            int attempts,
            DeliveryException e,
            List<OutboundMessage> parts) {
        String why = e.getMessage();
        String channel = entry.draft().channel();
        if (e.permanent()) {
            log.warn("outbox {} (turn {}) to {} failed permanently: {}", entry.id(), entry.turnId(), channel, why);
            return giveUp(entry, receipts, attempts, "permanent: " + why, parts);
        }
        int failures = attempts + 1;
        Optional<Instant> next =
                settings.get().retries().next(failures, clock.instant(), e.retryAfter(), random.getAsDouble());
        if (next.isEmpty()) {
            log.warn(
                    "outbox {} (turn {}) to {}: giving up after {} failed attempts: {}",
                    entry.id(),
                    entry.turnId(),
                    channel,
                    failures,
                    why);
            return giveUp(entry, receipts, failures, "gave up after " + failures + " attempts: " + why, parts);
        }
        log.warn(
                "outbox {} (turn {}) to {} failed ({}); retry {} at {}",
                entry.id(),
                entry.turnId(),
                channel,
                why,
                failures,
                next.get());
        record(entry, new OutboxUpdate(OutboxState.PENDING, receipts, why, failures, next.get()));
        return new DeliveryOutcome.RetryScheduled(next.get(), why);
    }

    private DeliveryOutcome giveUp(
            OutboxEntry entry, List<MessageReceipt> receipts, int attempts, String why, List<OutboundMessage> parts) {
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

    /**
     * Writes {@code u} for {@code entry} and tells the observer (SPEC OP-5); the only way this outbox changes an entry.
     */
    void record(OutboxEntry entry, OutboxUpdate u) {
        store.outbox().update(entry.id(), u);
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
        return String.join(
                ", ", caps.stream().map(Capability::specName).sorted().toList());
    }

    /**
     * An operator's resend ({@code clawgate outbox resend}): a failed, expired, partly failed or unknown entry goes
     * back to pending, due now; the running gateway (or the next start) sends it, resuming after the payloads already
     * delivered. A resent unknown entry ends {@code possibly_duplicated}, since the first send may have arrived.
     *
     * @throws IllegalArgumentException when there is no such entry, or it is pending, sending or sent
     */
    public OutboxEntry resend(long entryId) {
        OutboxEntry e = store.outbox()
                .entry(entryId)
                .orElseThrow(() -> new IllegalArgumentException("there is no outbox entry " + entryId));
        String detail = switch (e.state()) {
            case UNKNOWN_AFTER_SEND -> RESENT_UNKNOWN + " (" + RESENT_BY_OPERATOR + ")";
            case FAILED, EXPIRED, PARTIAL_FAILED -> RESENT_BY_OPERATOR;
            default ->
                throw new IllegalArgumentException(
                        "outbox entry " + entryId + " is " + e.state().wireName()
                                + "; only failed, partial_failed, expired and unknown_after_send entries can be "
                                + "resent");
        };
        record(e, new OutboxUpdate(OutboxState.PENDING, e.receipts(), detail, 0, clock.instant()));
        return store.outbox().entry(entryId).orElseThrow();
    }

    /** True for an entry someone chose to send again: not expired by age. */
    static boolean resentOnPurpose(OutboxEntry e) {
        return e.detail() != null
                && (e.detail().startsWith(RESENT_BY_OPERATOR) || e.detail().contains(RESENT_BY_OPERATOR));
    }

    /**
     * How long a new entry is left to the turn that recorded it: the turn claims and sends it at once, and the retry
     * pass taking it meanwhile would only race it (the claim keeps it to one send, but the turn would lose its own
     * delivery, e.g. a preview's finalization). An entry still untried after this was orphaned by its turn and is sent
     * by the retry pass.
     */
    static final Duration OWN_DELIVERY_GRACE = Duration.ofSeconds(30);

    /** The pending entries whose retry is due now, oldest first; those still left to their own turn are not. */
    public List<OutboxEntry> dueForRetry() {
        Instant now = clock.instant();
        List<OutboxEntry> due = new ArrayList<>();
        for (OutboxEntry e : store.outbox().due(now, 500)) {
            if (e.attempts() == 0 && !resentOnPurpose(e) && e.createdAt().isAfter(now.minus(OWN_DELIVERY_GRACE)))
                continue;
            due.add(e);
        }
        return due;
    }

    /**
     * Sends the pending entries whose retry is due, one after another, paced per channel; returns how many were tried.
     * The gateway's {@link OutboxWorker} sends them concurrently, a chat at a time.
     */
    public int retryDue(Function<String, Optional<MessageAdapter>> adapters, Pacer pacer) {
        int tried = 0;
        for (OutboxEntry e : dueForRetry()) {
            Optional<MessageAdapter> adapter = adapters.apply(e.draft().channel());
            if (adapter.isEmpty()) continue;
            pacer.await(e.draft().channel());
            deliver(e, adapter.get(), cancelOf(e.turnId()));
            tried++;
        }
        return tried;
    }

    /** The start-up pass (SPEC OUT-7), run before any turn can deliver; see {@link OutboxRecovery}. */
    public OutboxRecovery.Result recover(Function<String, Optional<MessageAdapter>> adapters, Pacer pacer) {
        return new OutboxRecovery(this, clock, settings.get()).run(adapters, pacer);
    }
}
