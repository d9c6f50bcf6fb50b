package dev.clawgate.channel.matrix;

import dev.clawgate.core.outbound.DeliveryException;
import java.time.Duration;
import java.util.Set;

/**
 * A client-server API call that failed: the homeserver's standard error ({@code errcode}, {@code error},
 * {@code retry_after_ms} or {@code Retry-After} on a 429), or no answer. The message never holds the token.
 */
final class MatrixApiException extends Exception {
    enum Reach {
        /** The homeserver answered with an error. */
        ANSWERED,
        /** The request never left (connection refused, DNS, connect timeout): nothing reached the server. */
        NOT_SENT,
        /** The request was sent but no answer came: it may have taken effect. */
        UNKNOWN
    }

    /** The token is no good, or the bot may not do this here: the same request cannot succeed (SPEC OUT-7). */
    private static final Set<String> PERMANENT = Set.of(
            "M_FORBIDDEN",
            "M_UNKNOWN_TOKEN",
            "M_MISSING_TOKEN",
            "M_USER_DEACTIVATED",
            "M_NOT_FOUND",
            "M_TOO_LARGE",
            "M_BAD_JSON",
            "M_NOT_JSON",
            "M_INVALID_PARAM",
            "M_UNRECOGNIZED",
            "M_DUPLICATE_ANNOTATION");

    private final Reach reach;
    private final int status;
    private final String errcode;
    private final Duration retryAfter;

    MatrixApiException(String message, Reach reach, int status, String errcode, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.reach = reach;
        this.status = status;
        this.errcode = errcode;
        this.retryAfter = retryAfter;
    }

    Reach reach() {
        return reach;
    }

    int status() {
        return status;
    }

    /** {@code M_FORBIDDEN}, {@code M_LIMIT_EXCEEDED}..., or null when none came. */
    String errcode() {
        return errcode;
    }

    /** The homeserver's {@code retry_after_ms} (or {@code Retry-After}), or null. */
    Duration retryAfter() {
        return retryAfter;
    }

    boolean rateLimited() {
        return status == 429 || "M_LIMIT_EXCEEDED".equals(errcode);
    }

    /** The token was refused: wrong, logged out, or its user deactivated. */
    boolean authRefused() {
        return status == 401
                || "M_UNKNOWN_TOKEN".equals(errcode)
                || "M_MISSING_TOKEN".equals(errcode)
                || "M_USER_DEACTIVATED".equals(errcode);
    }

    /**
     * What the failure means for a delivery (SPEC OUT-7): retry after the server's wait, give up, or never resend
     * blindly.
     */
    DeliveryException toDelivery(String what) {
        String message = what + ": " + getMessage();
        if (reach == Reach.UNKNOWN) return new DeliveryException(message, DeliveryException.Kind.AMBIGUOUS, null, this);
        if (reach == Reach.NOT_SENT)
            return new DeliveryException(message, DeliveryException.Kind.TRANSIENT, null, this);
        if (rateLimited())
            return DeliveryException.rateLimited(message, retryAfter == null ? Duration.ofSeconds(1) : retryAfter);
        if (authRefused()
                || (errcode != null && PERMANENT.contains(errcode))
                || (status >= 400 && status < 500 && status != 408)) {
            return new DeliveryException(message, DeliveryException.Kind.PERMANENT, null, this);
        }
        return new DeliveryException(message, DeliveryException.Kind.TRANSIENT, null, this);
    }
}
