package dev.clawgate.core.model;

/** Who speaks a message in a model conversation. */
public enum Role {
    SYSTEM,
    USER,
    ASSISTANT,
    TOOL;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Role fromWire(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
}
