package dev.clawgate.channel.telegram;

import dev.clawgate.core.outbound.DeliveryException;
import java.time.Duration;
import java.util.Locale;

/**
 * A Bot API call that failed: Telegram's answer ({@code error_code}, {@code description},
 * {@code parameters.retry_after}), or no answer. The message never holds the bot token.
 */
final class BotApiException extends Exception {

    enum Reach {
        /** Telegram answered with an error. */
        ANSWERED,
        /** The request never left (connection refused, DNS, connect timeout): nothing reached Telegram. */
        NOT_SENT,
        /** The request was sent but no answer came (read timeout, reset): it may have taken effect. */
        UNKNOWN
    }

    private final Reach reach;
    private final int code;
    private final Integer retryAfter;

    BotApiException(String message, Reach reach, int code, Integer retryAfter, Throwable cause) {
        super(message, cause);
        this.reach = reach;
        this.code = code;
        this.retryAfter = retryAfter;
    }

    Reach reach() {
        return reach;
    }

    /** Telegram's {@code error_code}, or 0 when it did not answer. */
    int code() {
        return code;
    }

    Integer retryAfter() {
        return retryAfter;
    }

    String description() {
        return getMessage();
    }

    boolean entityRejection() {
        return code == 400 && lower().contains("can't parse entities");
    }

    boolean notModified() {
        return code == 400 && lower().contains("message is not modified");
    }

    /** What the failure means for a delivery (SPEC OUT-7): retry, give up, or never resend blindly. */
    DeliveryException toDelivery(String what) {
        String message = what + ": " + getMessage();
        if (reach == Reach.UNKNOWN) return new DeliveryException(message, DeliveryException.Kind.AMBIGUOUS, null, this);
        if (reach == Reach.NOT_SENT)
            return new DeliveryException(message, DeliveryException.Kind.TRANSIENT, null, this);
        if (code == 429)
            return DeliveryException.rateLimited(message, Duration.ofSeconds(retryAfter == null ? 1 : retryAfter));
        if (code >= 500) return new DeliveryException(message, DeliveryException.Kind.TRANSIENT, null, this);
        // 400 chat not found, 403 blocked/kicked, 401 token: retrying the same request cannot succeed
        return new DeliveryException(message, DeliveryException.Kind.PERMANENT, null, this);
    }

    private String lower() {
        return getMessage() == null ? "" : getMessage().toLowerCase(Locale.ROOT);
    }
}
