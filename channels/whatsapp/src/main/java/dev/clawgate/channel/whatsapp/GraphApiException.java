package dev.clawgate.channel.whatsapp;

import dev.clawgate.core.outbound.DeliveryException;
import java.time.Duration;
import java.util.Set;

/**
 * A Graph API call that failed: Meta's error envelope ({@code {"error":{"message","type","code","error_subcode",
 * "error_data":{"details"},"fbtrace_id"}}}), or no answer. The message never holds the token.
 */
final class GraphApiException extends Exception {
    enum Reach {
        /** Meta answered with an error: the call did not take effect. */
        ANSWERED,
        /** The request never left (connection refused, DNS, connect timeout). */
        NOT_SENT,
        /** The request was sent but no answer came: it may have taken effect. */
        UNKNOWN
    }

    /** 24 hours since the customer last wrote: only a template message can reach them now. */
    static final int RE_ENGAGEMENT = 131047;
    /** The phone number's throughput, and the business-to-customer pair rate (about one message per 6 s). */
    static final int THROUGHPUT = 130429, PAIR_RATE = 131056;
    /** Graph's own call limits: app (4), user (17), business use case (80007), spam rate (131048). */
    static final Set<Integer> CALL_LIMITS = Set.of(4, 17, 32, 613, 80007, 131048);
    /** Meta's side failing for now: unknown (1), service (2), temporarily unavailable (131016), generic (131000). */
    static final Set<Integer> TRANSIENT = Set.of(1, 2, 131000, 131016);
    /** The token: expired or invalid (190), API permission (10, 200-299 are permission errors too). */
    static final int AUTH = 190, PERMISSION = 10;

    private final Reach reach;
    private final int httpStatus;
    private final int code;
    private final Integer subcode;

    GraphApiException(String message, Reach reach, int httpStatus, int code, Integer subcode, Throwable cause) {
        super(message, cause);
        this.reach = reach;
        this.httpStatus = httpStatus;
        this.code = code;
        this.subcode = subcode;
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

    Integer subcode() {
        return subcode;
    }

    boolean rateLimited() {
        return reach == Reach.ANSWERED
                && (code == THROUGHPUT || code == PAIR_RATE || CALL_LIMITS.contains(code) || httpStatus == 429);
    }

    boolean authRefused() {
        return reach == Reach.ANSWERED
                && (code == AUTH || code == PERMISSION || (code >= 200 && code < 300) || httpStatus == 401);
    }

    boolean outsideWindow() {
        return reach == Reach.ANSWERED && code == RE_ENGAGEMENT;
    }

    /** How long to wait before the same message may go again: Meta names no Retry-After for these codes. */
    Duration suggestedWait() {
        if (code == PAIR_RATE) return Duration.ofSeconds(6);
        if (CALL_LIMITS.contains(code)) return Duration.ofSeconds(60);
        return Duration.ofSeconds(2);
    }

    /** What the failure means for a delivery (SPEC OUT-7). */
    DeliveryException toDelivery(String what) {
        String message = "whatsapp " + what + ": " + getMessage();
        if (reach == Reach.UNKNOWN) return new DeliveryException(message, DeliveryException.Kind.AMBIGUOUS, null, this);
        if (reach == Reach.NOT_SENT) {
            return new DeliveryException(message, DeliveryException.Kind.TRANSIENT, null, this);
        }
        if (rateLimited()) return DeliveryException.rateLimited(message, suggestedWait());
        if (outsideWindow()) {
            return new DeliveryException(
                    "whatsapp " + what + ": the customer-service window is closed (error 131047: "
                            + "more than 24 hours since the customer last wrote); only a template message can reach "
                            + "them until "
                            + "they write again",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    this);
        }
        if (TRANSIENT.contains(code) || httpStatus >= 500) {
            return new DeliveryException(message, DeliveryException.Kind.TRANSIENT, null, this);
        }
        // 190 (token), 10 (permission), 100 (parameter), 131026 (undeliverable), 131051 (type)...: never takes it as is
        return new DeliveryException(message, DeliveryException.Kind.PERMANENT, null, this);
    }
}
