package dev.clawgate.core.store;

/** Where an inbound record stands (SPEC IN-4). Final states never change again. */
public enum InboxState {
    RECEIVED,
    DISPATCHED,
    DONE,
    DENIED,
    DROPPED_BY_HOOK,
    BUFFERED,
    MERGED,
    DROPPED_BY_QUEUE,
    CANCELLED,
    EXPIRED,
    FAILED;

    public boolean isFinal() {
        return this != RECEIVED && this != DISPATCHED && this != BUFFERED;
    }

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static InboxState fromWire(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
}
