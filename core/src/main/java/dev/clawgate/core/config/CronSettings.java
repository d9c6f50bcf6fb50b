package dev.clawgate.core.config;

import java.time.Duration;

/**
 * {@code [cron]} (SPEC AG-5 cron tools, OUT-12).
 *
 * @param enabled whether the agent gets {@code cron_add}, {@code cron_list} and {@code cron_remove}
 * @param maxJobsPerSession the most jobs one sender may keep in one session
 * @param minInterval the shortest period between two fires of one job
 * @param maxAge a fire missed (the gateway was down) by at most this much still runs, once; older ones are skipped
 */
public record CronSettings(boolean enabled, int maxJobsPerSession, Duration minInterval, Duration maxAge) {
    public CronSettings {
        if (maxJobsPerSession < 1)
            throw new IllegalArgumentException("cron.max_jobs_per_session must be 1 or more, got " + maxJobsPerSession);
        if (minInterval == null || minInterval.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("cron.min_interval must be at least 1 minute, got " + minInterval);
        }
        if (maxAge == null || maxAge.isNegative())
            throw new IllegalArgumentException("cron.max_age must not be negative");
    }

    public static CronSettings defaults() {
        return new CronSettings(true, 20, Duration.ofMinutes(1), Duration.ofHours(1));
    }
}
