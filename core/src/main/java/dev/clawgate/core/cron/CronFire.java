package dev.clawgate.core.cron;

import dev.clawgate.core.model.InboundMessage;
import java.time.Instant;
import java.util.Objects;

/**
 * One fire of a cron job, about to be claimed and recorded (SPEC AG-5, OUT-12).
 *
 * @param jobId the job
 * @param fireAt the fire being claimed: the job's stored next fire
 * @param next the job's next fire after this one, or null when this is its last (the job is then removed)
 * @param message the fired turn's inbound message, its id {@code cron:<job>:<fire ms>} ({@link CronTarget#fire})
 */
public record CronFire(long jobId, Instant fireAt, Instant next, InboundMessage message) {
    public CronFire {
        Objects.requireNonNull(fireAt, "fireAt");
        Objects.requireNonNull(message, "message");
        if (next != null && !next.isAfter(fireAt)) {
            throw new IllegalArgumentException("the next fire " + next + " must come after the claimed one " + fireAt);
        }
    }

    /** The fire of {@code job} at its stored next fire time, followed by {@code next}. */
    public static CronFire of(CronJob job, Instant next) {
        Instant at = Objects.requireNonNull(job.nextFireAt(), "a job without a next fire cannot fire");
        return new CronFire(job.id(), at, next, job.target().fire(job.id(), at, job.fireText()));
    }
}
