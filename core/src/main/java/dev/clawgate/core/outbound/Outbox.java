package dev.clawgate.core.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends write-ahead outbox entries (SPEC OUT-5, OUT-7): an entry is claimed ({@code sending},
 * committed) before any platform I/O, so a crash mid-send leaves a trace instead of a resend.
 * Retries with backoff and reconcile of unknown sends are not here yet: a transient failure
 * leaves the entry {@code pending} for the next recovery.
 */
public final class Outbox {
    private static final Logger log = LoggerFactory.getLogger(Outbox.class);

    /** What one recovery pass did, for the start-up log and tests. */
    public record Recovery(int sent, int failed, int stillPending, int expired, int unknownAfterSend) {}

    private final Store store;
    private final Clock clock;

    public Outbox(Store store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Sends one {@code pending} entry through {@code adapter} and returns the state it ends in. An
     * entry someone else already claimed (or that is no longer pending) is left alone: its current
     * state is not known here, so {@code SENDING} is returned and nothing is sent (SPEC OUT-12).
     */
    public OutboxState deliver(OutboxEntry entry, MessageAdapter adapter) {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(adapter, "adapter");
        if (!store.claimOutbox(entry.id())) {
            log.info("outbox {} (turn {}) is not pending; not sent again", entry.id(), entry.turnId());
            return OutboxState.SENDING;
        }
        OutboundMessage message = entry.draft().message(entry.turnId());
        try {
            // the turn is committed: its reply goes out even if the turn is cancelled now
            MessageReceipt receipt = adapter.send(message, CancelToken.none());
            store.markOutbox(entry.id(), OutboxState.SENT, receipt == null ? null : receipt.primaryId(), null);
            return OutboxState.SENT;
        } catch (DeliveryException e) {
            String why = e.getMessage();
            if (e.permanent()) {
                log.warn("outbox {} (turn {}) to {} failed permanently: {}", entry.id(), entry.turnId(), message.target().channel(), why);
                store.markOutbox(entry.id(), OutboxState.FAILED, null, why);
                return OutboxState.FAILED;
            }
            log.warn("outbox {} (turn {}) to {} failed, left pending for a retry: {}", entry.id(), entry.turnId(),
                    message.target().channel(), why);
            store.markOutbox(entry.id(), OutboxState.PENDING, null, why);
            return OutboxState.PENDING;
        } catch (RuntimeException e) {
            // the adapter broke mid-send: whether the platform got the message is unknown, so it is never resent blindly
            log.error("outbox {} (turn {}): adapter failed mid-send; marked unknown_after_send", entry.id(), entry.turnId(), e);
            store.markOutbox(entry.id(), OutboxState.UNKNOWN_AFTER_SEND, null, "adapter error: " + e.getClass().getSimpleName());
            return OutboxState.UNKNOWN_AFTER_SEND;
        }
    }

    /**
     * The start-up pass (SPEC OUT-7), to run before any turn can deliver: entries left
     * {@code sending} by a dead process become {@code unknown_after_send} and are NOT resent;
     * {@code pending} entries older than {@code maxAge} become {@code expired}; the rest are sent
     * through their channel's adapter, or stay pending when this process does not run the channel.
     */
    public Recovery recover(Function<String, Optional<MessageAdapter>> adapters, Duration maxAge) {
        Objects.requireNonNull(adapters, "adapters");
        if (maxAge == null || maxAge.isNegative()) throw new IllegalArgumentException("maxAge must be zero or more, got " + maxAge);
        List<OutboxEntry> interrupted = store.outboxByState(OutboxState.SENDING);
        for (OutboxEntry e : interrupted) {
            store.markOutbox(e.id(), OutboxState.UNKNOWN_AFTER_SEND, null, "process stopped during the send; not resent");
        }
        if (!interrupted.isEmpty()) {
            log.warn("outbox: {} repl{} may or may not have reached the platform (unknown_after_send, not resent): turns {}",
                    interrupted.size(), interrupted.size() == 1 ? "y" : "ies", interrupted.stream().map(OutboxEntry::turnId).toList());
        }
        Instant cutoff = clock.instant().minus(maxAge);
        int sent = 0, failed = 0, pending = 0, expired = 0;
        for (OutboxEntry e : store.outboxByState(OutboxState.PENDING)) {
            if (e.createdAt().isBefore(cutoff)) {
                store.markOutbox(e.id(), OutboxState.EXPIRED, null, "older than outbox max age " + maxAge);
                expired++;
                continue;
            }
            Optional<MessageAdapter> adapter = adapters.apply(e.draft().channel());
            if (adapter.isEmpty()) {
                pending++;
                continue;
            }
            switch (deliver(e, adapter.get())) {
                case SENT -> sent++;
                case PENDING -> pending++;
                default -> failed++;
            }
        }
        if (expired > 0) log.warn("outbox: {} stale repl{} expired, not sent (older than {})", expired, expired == 1 ? "y" : "ies", maxAge);
        Recovery r = new Recovery(sent, failed, pending, expired, interrupted.size());
        if (!r.equals(new Recovery(0, 0, 0, 0, 0))) log.info("outbox recovery: {}", r);
        return r;
    }
}
