package dev.clawgate.core.outbound;

import java.util.Locale;

/** How hard a channel's final replies are kept (SPEC OUT-6). */
public enum Durability {
    /** The default: through the outbox; if the outbox cannot be written, sent directly. */
    BEST_EFFORT,
    /**
     * Through the outbox or not at all: no platform I/O before the send is recorded. Needs
     * {@code reconcileUnknownSend}.
     */
    REQUIRED,
    /**
     * No outbox row: only connection-bound channels (terminal, API, web chat), whose replies cannot outlive the
     * connection.
     */
    DISABLED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Durability fromWire(String s) {
        for (Durability d : values()) if (d.wireName().equals(s)) return d;
        throw new IllegalArgumentException("unknown durability '" + s + "' (best_effort, required or disabled)");
    }
}
