package dev.clawgate.core.config;

import java.util.Locale;
import java.util.Optional;

/** {@code session.group_scope} (SPEC HI-1): one session per room/thread, or one per member. */
public enum GroupScope {
    SHARED,
    PER_SENDER;

    public static Optional<GroupScope> parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "shared" -> Optional.of(SHARED);
            case "per-sender" -> Optional.of(PER_SENDER);
            default -> Optional.empty();
        };
    }
}
