package dev.clawgate.core.outbound;

import java.time.Duration;

/** A send the platform refused or that could not reach it. */
public class DeliveryException extends Exception {

    /** What a failure means for the next attempt (SPEC OUT-7). */
    public enum Kind {
        /** Nothing reached the platform, or it said no for now (5xx, 429, connect failure): retry with backoff. */
        TRANSIENT,
        /** The platform will never take it (chat not found, bot blocked): fail at once. */
        PERMANENT,
        /** The request may have reached the platform (a timeout after it was written): never resent blindly. */
        AMBIGUOUS
    }

    private final Kind kind;
    private final Duration retryAfter;

    public DeliveryException(String message, Kind kind, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.kind = kind == null ? Kind.TRANSIENT : kind;
        this.retryAfter = retryAfter;
    }

    public DeliveryException(String message, boolean permanent, Throwable cause) {
        this(message, permanent ? Kind.PERMANENT : Kind.TRANSIENT, null, cause);
    }

    public static DeliveryException rateLimited(String message, Duration retryAfter) {
        return new DeliveryException(message, Kind.TRANSIENT, retryAfter, null);
    }

    public Kind kind() {
        return kind;
    }

    /** True when retrying cannot help (chat not found, bot blocked). */
    public boolean permanent() {
        return kind == Kind.PERMANENT;
    }

    /** The platform's retry-after, or null when it named none: no retry comes sooner. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
