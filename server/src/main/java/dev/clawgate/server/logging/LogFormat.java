package dev.clawgate.server.logging;

import java.util.Locale;
import java.util.Optional;

/** {@code logging.format} (SPEC OP-5, OP-9): readable lines, or one JSON object per line for a log collector. */
public enum LogFormat {
    TEXT,
    JSON;

    public static Optional<LogFormat> parse(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "text" -> Optional.of(TEXT);
            case "json" -> Optional.of(JSON);
            default -> Optional.empty();
        };
    }
}
