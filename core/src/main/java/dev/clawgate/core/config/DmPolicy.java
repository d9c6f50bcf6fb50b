package dev.clawgate.core.config;

import java.util.Locale;
import java.util.Optional;

/** {@code dm_policy} (SPEC IN-5). */
public enum DmPolicy {
    OPEN,
    ALLOWLIST,
    PAIRING,
    DISABLED;

    public static Optional<DmPolicy> parse(String s) {
        try {
            return Optional.of(valueOf(s.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
