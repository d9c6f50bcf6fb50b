package dev.clawgate.core.config;

import java.util.Locale;
import java.util.Optional;

/** {@code messages.queue.drop} (SPEC DI-3): what a full session queue gives up. */
public enum DropPolicy {
    /** Drop the oldest, keep a one-line summary of each for the next turn (the default). */
    SUMMARIZE,
    /** Drop the oldest silently. */
    OLD,
    /** Refuse the newest and tell the sender. */
    NEW;

    public static Optional<DropPolicy> parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "summarize", "summarise" -> Optional.of(SUMMARIZE);
            case "old" -> Optional.of(OLD);
            case "new" -> Optional.of(NEW);
            default -> Optional.empty();
        };
    }
}
