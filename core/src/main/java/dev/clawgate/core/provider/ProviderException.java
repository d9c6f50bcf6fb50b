package dev.clawgate.core.provider;

import java.time.Duration;

/**
 * A model call that failed, classified so the pipeline can act on it (ARCHITECTURE: Provider). The message must already
 * be free of secrets: it may reach a log.
 */
public final class ProviderException extends Exception {
    public enum Kind {
        /** The prompt did not fit the model's context (SPEC HI-5): compact and retry once. */
        CONTEXT_OVERFLOW,
        /** The model cannot take images (SPEC HI-6): roll the user turn back. */
        VISION_UNSUPPORTED,
        /** 429 or similar; {@link #retryAfter()} says when to try again. */
        RATE_LIMITED,
        /** Bad or missing credentials. */
        AUTH,
        /** Network trouble, 5xx, a timeout: worth another try or the next provider. */
        TRANSIENT,
        /** Anything else: a bad request, an unknown model. */
        FATAL
    }

    private final Kind kind;
    private final Duration retryAfter;
    private final int httpStatus;

    public ProviderException(Kind kind, String message, int httpStatus, Duration retryAfter, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.httpStatus = httpStatus;
        this.retryAfter = retryAfter;
    }

    public ProviderException(Kind kind, String message) {
        this(kind, message, 0, null, null);
    }

    public Kind kind() {
        return kind;
    }

    /** When a rate-limited call may be retried, or null when the provider did not say. */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** The HTTP status, or 0 when there was none. */
    public int httpStatus() {
        return httpStatus;
    }

    public boolean retryable() {
        return kind == Kind.RATE_LIMITED || kind == Kind.TRANSIENT;
    }
}
