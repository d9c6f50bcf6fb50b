package dev.clawgate.testkit.internal;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How a fake model server delivers one scripted reply, whatever the API: an error status and body or 200, extra
 * headers, pauses, and where a stream is cut short.
 *
 * @param errorBody the body of an error answer; null on success
 * @param truncateAfter how many stream events to send before ending cleanly; -1 for all
 */
public record Delivery(
        int status,
        String errorBody,
        Map<String, String> headers,
        Duration delayBefore,
        Duration delayPerChunk,
        int truncateAfter) {
    /** A 200 answer, sent at once and in full. */
    public static final Delivery OK = new Delivery(200, null, Map.of(), Duration.ZERO, Duration.ZERO, -1);

    public Delivery {
        headers = Map.copyOf(headers);
        Objects.requireNonNull(delayBefore, "delayBefore");
        Objects.requireNonNull(delayPerChunk, "delayPerChunk");
    }

    /** An HTTP error with exactly this body, whatever the stream flag. */
    public static Delivery error(int status, String body) {
        if (status < 400 || status > 599)
            throw new IllegalArgumentException("error status must be 4xx or 5xx: " + status);
        return new Delivery(status, body == null ? "" : body, Map.of(), Duration.ZERO, Duration.ZERO, -1);
    }

    public boolean isError() {
        return status >= 400;
    }

    /** With a response header added (or replaced); names are lower-cased. */
    public Delivery header(String name, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(name.toLowerCase(Locale.ROOT), value);
        return new Delivery(status, errorBody, h, delayBefore, delayPerChunk, truncateAfter);
    }

    public Delivery delayBefore(Duration delay) {
        return new Delivery(status, errorBody, headers, Objects.requireNonNull(delay), delayPerChunk, truncateAfter);
    }

    public Delivery delayPerChunk(Duration delay) {
        return new Delivery(status, errorBody, headers, delayBefore, Objects.requireNonNull(delay), truncateAfter);
    }

    public Delivery truncatedAfter(int events) {
        if (events < 0) throw new IllegalArgumentException("events must be >= 0");
        return new Delivery(status, errorBody, headers, delayBefore, delayPerChunk, events);
    }
}
