package dev.clawgate.channel.lark;

import dev.clawgate.core.outbound.DeliveryException;
import java.time.Duration;

/**
 * A failed open-platform call (SPEC CH-11, OUT-7): its HTTP status, the platform's {@code code}, and whether the
 * request reached the platform. 99991400 (and HTTP 429) is a rate limit; 99991663/99991664 an invalid tenant or app
 * token (refreshed once by {@link LarkApi} before this is thrown); other codes are permanent.
 */
final class LarkApiException extends Exception {
    static final int RATE_LIMITED = 99991400;
    static final int TENANT_TOKEN_INVALID = 99991663;
    static final int APP_TOKEN_INVALID = 99991664;

    enum Reach {
        NOT_SENT,
        ANSWERED,
        UNKNOWN
    }

    private final Reach reach;
    private final int httpStatus;
    private final int code;

    LarkApiException(String message, Reach reach, int httpStatus, int code, Throwable cause) {
        super(message, cause);
        this.reach = reach;
        this.httpStatus = httpStatus;
        this.code = code;
    }

    Reach reach() {
        return reach;
    }

    int code() {
        return code;
    }

    boolean tokenInvalid() {
        return code == TENANT_TOKEN_INVALID || code == APP_TOKEN_INVALID;
    }

    boolean rateLimited() {
        return code == RATE_LIMITED || httpStatus == 429;
    }

    /**
     * How the outbox treats it. A send carrying a {@code uuid} whose answer was lost is transient: sent again with the
     * same uuid, the platform gives the first message back instead of a second one (OUT-7).
     */
    DeliveryException toDelivery(String what, boolean idempotent) {
        String m = "lark " + what + ": " + getMessage();
        if (rateLimited())
            return new DeliveryException(m, DeliveryException.Kind.TRANSIENT, Duration.ofSeconds(1), this);
        return switch (reach) {
            case NOT_SENT -> new DeliveryException(m, DeliveryException.Kind.TRANSIENT, null, this);
            case UNKNOWN ->
                new DeliveryException(
                        m,
                        idempotent ? DeliveryException.Kind.TRANSIENT : DeliveryException.Kind.AMBIGUOUS,
                        null,
                        this);
            case ANSWERED ->
                new DeliveryException(
                        m,
                        httpStatus >= 500 ? DeliveryException.Kind.TRANSIENT : DeliveryException.Kind.PERMANENT,
                        null,
                        this);
        };
    }
}
