package dev.clawgate.core.cron;

import dev.clawgate.core.model.SessionKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The stored cron jobs (SPEC AG-5, OP-1: the store holds cron). Every method is its own transaction; failures are
 * {@link dev.clawgate.core.store.StoreException}s. Thread-safe.
 */
public interface CronBook {

    /**
     * Stores a new job, unless its owner (session and sender) already has {@code maxPerOwner} jobs: counted and
     * inserted in one transaction.
     *
     * @return the stored job with its id, or empty when the owner is at the limit
     */
    Optional<CronJob> add(CronJob job, int maxPerOwner);

    /** The jobs of one owner, oldest first. */
    List<CronJob> list(SessionKey session, String sender);

    /** Every job, oldest first: for the CLI. */
    List<CronJob> all();

    /** Removes the owner's job {@code id}; false when the owner has no such job. */
    boolean remove(long id, SessionKey session, String sender);

    /** Removes job {@code id} whoever owns it (the CLI); false when there is none. */
    boolean remove(long id);

    /** Jobs whose next fire is at or before {@code now}, earliest first, at most {@code limit}. */
    List<CronJob> due(Instant now, int limit);

    /** The earliest next fire of any job, if any job has one. */
    Optional<Instant> nextFire();

    /**
     * Records that the job's fire at {@code fireAt} is taken, before it runs (SPEC OUT-12): moves its next fire from
     * {@code fireAt} to {@code next}, or deletes the job when {@code next} is null. Returns false (changing nothing)
     * when the job's next fire is no longer {@code fireAt}: another node or an earlier run took it, so it must not run
     * again.
     */
    boolean claimFire(long id, Instant fireAt, Instant next);
}
