package dev.clawgate.core.config;

import dev.clawgate.core.internal.outbound.RetrySchedule;
import dev.clawgate.core.outbound.Durability;
import java.time.Duration;
import java.util.Objects;

/**
 * {@code [outbox]} (SPEC OUT-6, OUT-7).
 *
 * @param durability how hard final replies are kept on channels that are not connection-bound
 * @param maxAge pending replies older than this are expired at start, not replayed
 * @param resendUnknown resend an {@code unknown_after_send} entry once (marked {@code possibly_duplicated}) when the
 *     channel cannot reconcile; off by default: a lost reply is better than a second one
 * @param replayPerSecond how fast a backlog is replayed per channel, so it cannot trip platform rate limits
 * @param retries when failed sends are tried again
 */
public record OutboxSettings(
        Durability durability, Duration maxAge, boolean resendUnknown, int replayPerSecond, RetrySchedule retries) {
    public OutboxSettings {
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(maxAge, "maxAge");
        Objects.requireNonNull(retries, "retries");
        if (durability == Durability.DISABLED) {
            throw new IllegalArgumentException(
                    "outbox.durability = \"disabled\" is only for connection-bound channels; use best_effort or "
                            + "required");
        }
        if (maxAge.isNegative() || maxAge.isZero())
            throw new IllegalArgumentException("outbox.max_age must be positive, got " + maxAge);
        if (replayPerSecond < 1)
            throw new IllegalArgumentException("outbox.replay_per_second must be at least 1, got " + replayPerSecond);
    }

    public static OutboxSettings defaults() {
        return new OutboxSettings(Durability.BEST_EFFORT, Duration.ofHours(1), false, 20, RetrySchedule.DEFAULT);
    }
}
