package dev.clawgate.core.internal.render;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The pause between streamed blocks after the first (SPEC OUT-2, {@code human_delay}): {@code off}, {@code natural}
 * (800–2500 ms) or a custom range, drawn uniformly.
 */
public record HumanDelay(Duration min, Duration max) {
    public HumanDelay {
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        if (min.isNegative() || max.compareTo(min) < 0)
            throw new IllegalArgumentException("need 0 <= min <= max: " + min + ", " + max);
    }

    public static HumanDelay off() {
        return new HumanDelay(Duration.ZERO, Duration.ZERO);
    }

    public static HumanDelay natural() {
        return new HumanDelay(Duration.ofMillis(800), Duration.ofMillis(2500));
    }

    public static HumanDelay custom(Duration min, Duration max) {
        return new HumanDelay(min, max);
    }

    public boolean isOff() {
        return max.isZero();
    }

    /** The next pause, uniformly in {@code [min, max]} to the millisecond. */
    public Duration next(RandomGenerator random) {
        long lo = min.toMillis();
        long hi = max.toMillis();
        return Duration.ofMillis(lo == hi ? lo : lo + random.nextLong(hi - lo + 1));
    }
}
