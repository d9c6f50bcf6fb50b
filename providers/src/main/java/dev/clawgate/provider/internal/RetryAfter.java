package dev.clawgate.provider.internal;

import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** When a refused call may be tried again, from the standard headers (SPEC SP-4: rate limits). */
public final class RetryAfter {
    private RetryAfter() {}

    /**
     * From {@code retry-after-ms}, else {@code retry-after} (seconds or an HTTP date); null when neither says anything
     * usable. The headers are advisory, so a bad value is ignored.
     */
    public static Duration fromHeaders(HttpHeaders headers, Clock clock) {
        Optional<String> ms = headers.firstValue("retry-after-ms");
        if (ms.isPresent()) {
            try {
                return nonNegative(
                        Duration.ofMillis(Math.round(Double.parseDouble(ms.get().strip()))));
            } catch (NumberFormatException e) {
                // fall through to retry-after
            }
        }
        return headers.firstValue("retry-after")
                .map(v -> parse(v.strip(), clock))
                .orElse(null);
    }

    private static Duration parse(String value, Clock clock) {
        try {
            return nonNegative(Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000)));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
                return nonNegative(Duration.between(clock.instant(), at.toInstant()));
            } catch (DateTimeParseException notADate) {
                return null;
            }
        }
    }

    private static Duration nonNegative(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }
}
