package dev.clawgate.core.store;

import java.util.Locale;

/** Where an outbox entry stands (SPEC OUT-5, OUT-7). Only {@code PENDING} is ever sent. */
public enum OutboxState {
    PENDING, SENDING, SENT, SUPPRESSED, PARTIAL_FAILED, FAILED, EXPIRED, UNKNOWN_AFTER_SEND;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static OutboxState fromWire(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT));
    }
}
