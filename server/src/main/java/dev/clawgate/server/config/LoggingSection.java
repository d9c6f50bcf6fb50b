package dev.clawgate.server.config;

import dev.clawgate.server.logging.LogFormat;

/** Reads {@code [logging]}: {@code format} ({@link LogFormat}, default text). */
final class LoggingSection {
    private LoggingSection() {}

    static LogFormat format(TableReader root) {
        return root.table("logging").choice("format", LogFormat.TEXT, LogFormat::parse, "a log format", "text, json");
    }
}
