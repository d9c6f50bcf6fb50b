package dev.clawgate.core.config;

/** {@code [history]} (SPEC HI-2, HI-4). */
public record HistorySettings(int maxMessages, long maxChars) {
    public static HistorySettings defaults() {
        return new HistorySettings(50, 400_000);
    }
}
