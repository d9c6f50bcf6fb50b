package dev.clawgate.channel.discord;

import dev.clawgate.core.outbound.DeliveryException;
import java.time.Duration;
import java.util.Set;

/**
 * An HTTP API call that failed: Discord's answer (a status with {@code {"code": ..., "message": ...}}, or a 429 with
 * {@code retry_after}), or no answer. The message never holds the token.
 */
final class DiscordApiException extends Exception {
    enum Reach {
        /** Discord answered with an error. */
        ANSWERED,
        /** The request never left (connection refused, DNS, connect timeout), or a rate limit kept it here. */
        NOT_SENT,
        /** The request was sent but no answer came (read timeout, reset): it may have taken effect. */
        UNKNOWN
    }

    /**
     * JSON error codes that say the request cannot succeed as it is (SPEC OUT-7;
     * developers/topics/opcodes-and-status-codes, "JSON Error Codes"): Unknown Channel, Unknown Message, Unknown User,
     * Missing Access, Cannot send messages to this user, Missing Permissions, Invalid Form Body, and the like. Every
     * 4xx but 429 is permanent in any case.
     */
    static final Set<Integer> PERMANENT_CODES = Set.of(10003, 10008, 10013, 50001, 50007, 50013, 50035, 50006, 160004);

    private final Reach reach;
    private final int status;
    private final int code;
    private final Duration retryAfter;

    DiscordApiException(String message, Reach reach, int status, int code, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.reach = reach;
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
    }

    Reach reach() {
        return reach;
    }

    /** The HTTP status Discord answered, or 0 when none came. */
    int status() {
        return status;
    }

    /** Discord's JSON error code (50001 Missing Access, ...), or 0. */
    int code() {
        return code;
    }

    /** How long to wait before the same request may go, or null. */
    Duration retryAfter() {
        return retryAfter;
    }

    boolean rateLimited() {
        return status == 429;
    }

    /** The token was refused (401): it is wrong or was reset. */
    boolean authRefused() {
        return status == 401;
    }

    /** Whether the same request can never succeed: any 4xx but 429 (SPEC OUT-7: fail at once). */
    boolean permanent() {
        return reach == Reach.ANSWERED && status >= 400 && status < 500 && status != 429;
    }

    /** What the failure means for a delivery (SPEC OUT-7): retry, give up, or never resend blindly. */
    DeliveryException toDelivery(String what) {
        String message = what + ": " + getMessage();
        if (reach == Reach.UNKNOWN) return new DeliveryException(message, DeliveryException.Kind.AMBIGUOUS, null, this);
        if (rateLimited())
            return DeliveryException.rateLimited(message, retryAfter == null ? Duration.ofSeconds(1) : retryAfter);
        if (reach == Reach.NOT_SENT || status >= 500)
            return new DeliveryException(message, DeliveryException.Kind.TRANSIENT, null, this);
        return new DeliveryException(message, DeliveryException.Kind.PERMANENT, null, this);
    }
}
