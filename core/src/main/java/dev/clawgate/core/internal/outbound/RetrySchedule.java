package dev.clawgate.core.internal.outbound;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * When a failed send is tried again (SPEC OUT-7): 5 s, 25 s, 2 min, then every 10 min, each spread by ±{@code jitter}
 * so a burst of failures does not retry in lockstep, never sooner than the platform's retry-after, and at most
 * {@code maxRetries} times.
 */
public record RetrySchedule(List<Duration> delays, int maxRetries, double jitter) {
    public static final RetrySchedule DEFAULT = new RetrySchedule(
            List.of(Duration.ofSeconds(5), Duration.ofSeconds(25), Duration.ofMinutes(2), Duration.ofMinutes(10)),
            5,
            0.2);

    public RetrySchedule {
        delays = List.copyOf(Objects.requireNonNull(delays, "delays"));
        if (delays.isEmpty()) throw new IllegalArgumentException("a retry schedule needs at least one delay");
        if (maxRetries < 0) throw new IllegalArgumentException("maxRetries must be zero or more, got " + maxRetries);
        if (jitter < 0 || jitter >= 1) throw new IllegalArgumentException("jitter must be in [0, 1), got " + jitter);
    }

    /**
     * The time of the next try after the {@code failures}-th failed attempt (1 for the first), or empty when the
     * retries are used up.
     *
     * @param retryAfter the platform's retry-after, or null
     * @param random a sample in [0, 1) that places the jitter
     */
    public Optional<Instant> next(int failures, Instant now, Duration retryAfter, double random) {
        if (failures < 1) throw new IllegalArgumentException("failures counts from 1, got " + failures);
        if (failures > maxRetries) return Optional.empty();
        Duration base = delays.get(Math.min(failures, delays.size()) - 1);
        long spread = Math.round(base.toMillis() * jitter * (2 * random - 1));
        Duration delay = base.plusMillis(spread);
        if (retryAfter != null && retryAfter.compareTo(delay) > 0) delay = retryAfter;
        return Optional.of(now.plus(delay));
    }
}
