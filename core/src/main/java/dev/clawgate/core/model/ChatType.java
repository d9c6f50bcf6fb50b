package dev.clawgate.core.model;

/** Whether a conversation has two parties or many (SPEC MD-1). */
public enum ChatType {
    DIRECT,
    GROUP;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static ChatType fromWire(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
}
