package dev.clawgate.channel.qq;

import dev.clawgate.core.outbound.DeliveryException;
import java.time.Duration;

/**
 * A failed OpenAPI call (SPEC CH-13, OUT-7): its HTTP status, the platform's {@code code}, and whether the request
 * reached the platform. The codes are those the platform answers ({@code {"message", "code", "err_code", "trace_id"}});
 * see the module README for where each one is documented or was observed.
 */
final class QqApiException extends Exception {
    /** "token not exist or expire": fetched anew once and the call made again ({@link QqApi}). */
    static final int TOKEN_INVALID = 11244;
    /** "消息被去重，请检查请求msgseq": this {@code msg_id} + {@code msg_seq} was already sent. */
    static final int SEQ_DUPLICATE = 40054005;
    /** "请求参数msg_id无效或越权": the message can no longer be answered passively (expired, or replied to enough). */
    static final int MSG_ID_INVALID = 40034024;
    /** "无权限": an active message the bot may not send. */
    static final int NO_PERMISSION = 40034102;
    /** The token endpoint's "Too many requests". */
    static final int TOKEN_TOO_MANY = 100001;

    enum Reach {
        NOT_SENT,
        ANSWERED,
        UNKNOWN
    }

    private final Reach reach;
    private final int httpStatus;
    private final int code;

    QqApiException(String message, Reach reach, int httpStatus, int code) {
        super(message);
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

    int httpStatus() {
        return httpStatus;
    }

    boolean tokenInvalid() {
        return code == TOKEN_INVALID || (httpStatus == 401 && code == 0);
    }

    boolean seqDuplicate() {
        return code == SEQ_DUPLICATE;
    }

    boolean passiveClosed() {
        return code == MSG_ID_INVALID;
    }

    /** Worth trying again later: rate limited, the platform's own failure, or never sent. */
    boolean retryable() {
        return reach == Reach.NOT_SENT || httpStatus == 429 || httpStatus >= 500 || code == TOKEN_TOO_MANY;
    }

    /**
     * How the outbox treats it. A passive send whose answer was lost is transient: sent again with the same
     * {@code msg_seq}, the platform refuses a second copy ({@link #SEQ_DUPLICATE}), which proves the first arrived.
     */
    DeliveryException toDelivery(String what, boolean idempotent) {
        String m = "qq " + what + ": " + getMessage();
        if (retryable()) {
            return new DeliveryException(
                    m, DeliveryException.Kind.TRANSIENT, httpStatus == 429 ? Duration.ofSeconds(1) : null, this);
        }
        if (reach == Reach.UNKNOWN) {
            return new DeliveryException(
                    m, idempotent ? DeliveryException.Kind.TRANSIENT : DeliveryException.Kind.AMBIGUOUS, null, this);
        }
        return new DeliveryException(m, DeliveryException.Kind.PERMANENT, null, this);
    }
}
