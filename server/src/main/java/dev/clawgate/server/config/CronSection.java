package dev.clawgate.server.config;

import dev.clawgate.core.config.CronSettings;
import java.time.Duration;

/** Reads {@code [cron]} (SPEC AG-5 cron tools, OUT-12). */
final class CronSection {
    private CronSection() {}

    static CronSettings read(TableReader t) {
        CronSettings d = CronSettings.defaults();
        return new CronSettings(
                t.bool("enabled", d.enabled()),
                t.integer("max_jobs_per_session", d.maxJobsPerSession(), 1, 10_000),
                t.duration("min_interval", d.minInterval(), Duration.ofMinutes(1)),
                t.duration("max_age", d.maxAge(), Duration.ZERO));
    }
}
