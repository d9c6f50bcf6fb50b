package dev.clawgate.testkit.webhook;

import java.time.Duration;
import java.util.Objects;

/**
 * How the platform answers one reply posted to its callback: a status, optionally after a delay, or no answer at all
 * (the connection is closed). Whether the platform keeps the reply is separate from what the gateway hears, so a test
 * can script a reply that arrived but whose answer did not.
 *
 * @param status the HTTP status, when one is sent
 * @param retryAfter sent as {@code Retry-After} in whole seconds, or null
 * @param keep whether the platform keeps (counts, shows, can look up) the reply
 * @param delay how long the platform waits before answering
 * @param hangUp close the connection instead of answering
 */
public record CallbackAnswer(int status, Duration retryAfter, boolean keep, Duration delay, boolean hangUp) {
    public CallbackAnswer {
        Objects.requireNonNull(delay, "delay");
        if (status < 100 || status > 599) throw new IllegalArgumentException("not an HTTP status: " + status);
    }

    /** Answers {@code status} at once; a 2xx is kept, anything else is not. */
    public static CallbackAnswer status(int status) {
        return new CallbackAnswer(status, null, status / 100 == 2, Duration.ZERO, false);
    }

    /** 429 with {@code Retry-After}; not kept. */
    public static CallbackAnswer rateLimited(Duration retryAfter) {
        return new CallbackAnswer(429, Objects.requireNonNull(retryAfter, "retryAfter"), false, Duration.ZERO, false);
    }

    /**
     * Keeps the reply but answers 200 only after {@code delay}: a client with a shorter timeout cannot know it arrived.
     */
    public static CallbackAnswer acceptedButLate(Duration delay) {
        return new CallbackAnswer(200, null, true, delay, false);
    }

    /** Keeps the reply, then closes the connection without answering: a reset after the request was written. */
    public static CallbackAnswer acceptedThenHangUp() {
        return new CallbackAnswer(200, null, true, Duration.ZERO, true);
    }

    /** Drops the reply and answers 503 only after {@code delay}: a timeout that delivered nothing. */
    public static CallbackAnswer lostAndLate(Duration delay) {
        return new CallbackAnswer(503, null, false, delay, false);
    }
}
