package dev.clawgate.core.config;

import java.util.Locale;
import java.util.Optional;

/** {@code session.dm_scope} (SPEC HI-1): how direct chats map to sessions. */
public enum DmScope {
    /** One session per channel, account and person (the default). */
    PER_CHANNEL_PEER,
    /** One session per person id across channels. */
    PER_PEER,
    /** The owner's direct chats on every channel share one session. */
    MAIN;

    public static Optional<DmScope> parse(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "per-channel-peer" -> Optional.of(PER_CHANNEL_PEER);
            case "per-peer" -> Optional.of(PER_PEER);
            case "main" -> Optional.of(MAIN);
            default -> Optional.empty();
        };
    }
}
