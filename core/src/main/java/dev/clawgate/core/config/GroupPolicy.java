package dev.clawgate.core.config;

import java.util.Locale;
import java.util.Optional;

/** {@code group_policy} (SPEC IN-5). */
public enum GroupPolicy {
    OPEN,
    ALLOWLIST,
    DISABLED;

    public static Optional<GroupPolicy> parse(String s) {
        try {
            return Optional.of(valueOf(s.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
