package dev.clawgate.core.config;

import java.util.Locale;
import java.util.Optional;

/** What happens to a message that arrives while its session has an active run (SPEC DI-3). */
public enum QueueMode {
    STEER,
    FOLLOWUP,
    COLLECT,
    INTERRUPT;

    /** Parses a configured name; retired names ({@code queue}, {@code steer-backlog}) map to steer. */
    public static Optional<QueueMode> parse(String s) {
        if (s == null) return Optional.empty();
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "steer", "queue", "steer-backlog", "steer_backlog" -> Optional.of(STEER);
            case "followup", "follow-up" -> Optional.of(FOLLOWUP);
            case "collect" -> Optional.of(COLLECT);
            case "interrupt" -> Optional.of(INTERRUPT);
            default -> Optional.empty();
        };
    }

    /** True for the retired names that are still accepted with a warning. */
    public static boolean isRetiredName(String s) {
        String n = s.trim().toLowerCase(Locale.ROOT);
        return n.equals("queue") || n.startsWith("steer-backlog") || n.equals("steer_backlog");
    }
}
