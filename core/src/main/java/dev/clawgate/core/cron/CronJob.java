package dev.clawgate.core.cron;

import dev.clawgate.core.model.SessionKey;
import java.time.Instant;
import java.util.Objects;

/**
 * A scheduled agent turn (SPEC AG-5 {@code cron_add}), owned by the session and sender that made it.
 *
 * @param id the store's id; 0 for a job not stored yet
 * @param name a short label, or null
 * @param prompt what the agent is asked when the job fires
 * @param nextFireAt when it fires next; null once a one-shot job has fired
 */
public record CronJob(
        long id,
        SessionKey session,
        CronTarget target,
        String name,
        String prompt,
        Schedule schedule,
        Instant createdAt,
        Instant nextFireAt) {
    public CronJob {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(createdAt, "createdAt");
        if (prompt == null || prompt.isBlank()) throw new IllegalArgumentException("a cron job needs a prompt");
    }

    /** The text of the fired turn's inbound message. */
    public String fireText() {
        return "[Scheduled task" + (name == null ? "" : " \"" + name + "\"") + "] " + prompt;
    }
}
