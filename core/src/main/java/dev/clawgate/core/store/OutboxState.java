package dev.clawgate.core.store;

import java.util.Locale;

/**
 * Where an outbox entry stands (SPEC OUT-5, OUT-7): {@code pending → sending → sent | suppressed | partial_failed |
 * failed | expired}; {@code unknown_after_send} when a crash or an ambiguous failure hid the outcome;
 * {@code possibly_duplicated} after an unknown send was resent on request. Only {@code PENDING} is ever sent.
 */
public enum OutboxState {
    PENDING,
    SENDING,
    SENT,
    SUPPRESSED,
    PARTIAL_FAILED,
    FAILED,
    EXPIRED,
    UNKNOWN_AFTER_SEND,
    POSSIBLY_DUPLICATED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static OutboxState fromWire(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT));
    }

    /** No send will ever be made for it again (without an operator's say). */
    public boolean terminal() {
        return this != PENDING && this != SENDING;
    }
}
