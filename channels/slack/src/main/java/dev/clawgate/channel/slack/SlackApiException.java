package dev.clawgate.channel.slack;

import dev.clawgate.core.outbound.DeliveryException;
import java.time.Duration;
import java.util.Set;

/**
 * A Web API call that failed: Slack's answer ({@code "ok": false} with its {@code error}, or HTTP 429 with
 * {@code Retry-After}), or no answer. The message never holds a token.
 */
final class SlackApiException extends Exception {
    enum Reach {
        /** Slack answered with an error. */
        ANSWERED,
        /** The request never left (connection refused, DNS, connect timeout): nothing reached Slack. */
        NOT_SENT,
        /** The request was sent but no answer came (read timeout, reset): it may have taken effect. */
        UNKNOWN
    }

    /**
     * Errors that say the request cannot succeed as it is (SPEC OUT-7): the token, the bot's place in the conversation,
     * or the message itself. Any error Slack answers that is not known to pass is treated so too.
     */
    static final Set<String> TRANSIENT = Set.of(
            "ratelimited",
            "rate_limited",
            "internal_error",
            "fatal_error",
            "service_unavailable",
            "request_timeout",
            "team_added_to_org");

    private final Reach reach;
    private final String error;
    private final int status;
    private final Duration retryAfter;

    SlackApiException(String message, Reach reach, String error, int status, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.reach = reach;
        this.error = error;
        this.status = status;
        this.retryAfter = retryAfter;
    }

    Reach reach() {
        return reach;
    }

    /**
     * Slack's {@code error} ({@code invalid_auth}, {@code channel_not_found}, ...), {@code ratelimited} for a 429, or
     * null.
     */
    String error() {
        return error;
    }

    /** The HTTP status Slack answered, or 0 when none came. */
    int status() {
        return status;
    }

    /** Slack's {@code Retry-After}, or null when it named none. */
    Duration retryAfter() {
        return retryAfter;
    }

    boolean rateLimited() {
        return status == 429;
    }

    /** The token was refused: it is wrong, revoked, or its bot deactivated. */
    boolean authRefused() {
        return error != null
                && Set.of("invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive")
                        .contains(error);
    }

    /** What the failure means for a delivery (SPEC OUT-7): retry, give up, or never resend blindly. */
    DeliveryException toDelivery(String what) {
        String message = what + ": " + getMessage();
        if (reach == Reach.UNKNOWN) return new DeliveryException(message, DeliveryException.Kind.AMBIGUOUS, null, this);
        if (reach == Reach.NOT_SENT)
            return new DeliveryException(message, DeliveryException.Kind.TRANSIENT, null, this);
        if (rateLimited())
            return DeliveryException.rateLimited(message, retryAfter == null ? Duration.ofSeconds(1) : retryAfter);
        if (status >= 500 || (error != null && TRANSIENT.contains(error))) {
            return new DeliveryException(message, DeliveryException.Kind.TRANSIENT, null, this);
        }
        // invalid_auth, channel_not_found, not_in_channel, account_inactive, is_archived, msg_too_long...: the same
        // request cannot succeed
        return new DeliveryException(message, DeliveryException.Kind.PERMANENT, null, this);
    }
}
