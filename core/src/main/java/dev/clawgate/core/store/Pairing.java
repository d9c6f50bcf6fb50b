package dev.clawgate.core.store;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * A one-time pairing code handed to an unknown direct-message sender (SPEC IN-5). The owner approves or rejects it with
 * {@code clawgate pairing}; a code nobody decided on expires.
 *
 * @param status where the pairing stands; a pending code past {@code expiresAt} is reported as {@link Status#EXPIRED}
 * @param expiresAt when a pending code stops being accepted
 */
public record Pairing(
        String code,
        String channel,
        String account,
        String sender,
        Status status,
        Instant createdAt,
        Instant expiresAt) {

    /** Where a pairing stands. Only {@code PENDING} ever changes. */
    public enum Status {
        PENDING,
        APPROVED,
        REJECTED,
        EXPIRED;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Status fromWire(String s) {
            return valueOf(s.toUpperCase(Locale.ROOT));
        }
    }

    public Pairing {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** The status as seen at {@code now}: a pending code whose time ran out is expired. */
    public static Status statusAt(Status stored, Instant expiresAt, Instant now) {
        return stored == Status.PENDING && !now.isBefore(expiresAt) ? Status.EXPIRED : stored;
    }

    /** Codes are compared ignoring case and surrounding blanks, as an owner may type them. */
    public static String normaliseCode(String code) {
        return Objects.requireNonNull(code, "code").strip().toUpperCase(Locale.ROOT);
    }
}
