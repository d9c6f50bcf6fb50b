package dev.clawgate.server;

import dev.clawgate.core.config.CronSettings;
import dev.clawgate.core.cron.CronBook;
import dev.clawgate.core.cron.CronFire;
import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.cron.FireSink;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires due cron jobs (SPEC AG-5) as inbound messages on their conversation, through the inbox and dispatcher like any
 * message, so each reply goes through the outbox to that channel. A fire is claimed and its message recorded in one
 * transaction (SPEC IN-4, OUT-12): a crash leaves it either due or in the inbox, where a restart runs it; never claimed
 * and lost, never run twice. After a restart a fire missed by at most {@code cron.max_age} runs once; older ones are
 * skipped with a log line. One virtual thread, asleep until the next fire (or {@link #MAX_NAP}, or a {@link #wake()});
 * at most {@link #BATCH} fires per pass.
 */
public final class CronScheduler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CronScheduler.class);
    /** The longest sleep between two looks at the store: other nodes may add jobs this one hears nothing of. */
    static final Duration MAX_NAP = Duration.ofSeconds(30);

    static final int BATCH = 50;

    private final CronBook book;
    private final FireSink inbox;
    private final Predicate<String> channelRunning;
    private final Supplier<CronSettings> settings;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean woken;
    private volatile boolean closed;
    private Thread thread;

    public CronScheduler(
            CronBook book,
            FireSink inbox,
            Predicate<String> channelRunning,
            Supplier<CronSettings> settings,
            Clock clock) {
        this.book = book;
        this.inbox = inbox;
        this.channelRunning = channelRunning;
        this.settings = settings;
        this.clock = clock;
    }

    public CronScheduler start() {
        thread = Thread.ofVirtual().name("cron-scheduler").start(this::loop);
        return this;
    }

    /** Looks at the store again now: a job was added. */
    public void wake() {
        lock.lock();
        try {
            woken = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        while (!closed) {
            Duration nap = MAX_NAP;
            try {
                runDue();
                Optional<Instant> next = book.nextFire();
                if (next.isPresent()) {
                    Duration until = Duration.between(clock.instant(), next.get());
                    if (until.compareTo(nap) < 0) nap = until.isNegative() ? Duration.ZERO : until;
                }
            } catch (StoreException e) {
                log.warn("cron: the store failed ({}); looking again in {} s", e.getMessage(), MAX_NAP.toSeconds());
            } catch (RuntimeException e) {
                log.error("cron: a pass failed; looking again in {} s", MAX_NAP.toSeconds(), e);
            }
            if (!sleep(nap)) return;
        }
    }

    /** Waits up to {@code nap} or until woken; false when closed or interrupted. */
    private boolean sleep(Duration nap) {
        lock.lock();
        try {
            long nanos = nap.toNanos();
            while (!woken && !closed && nanos > 0) nanos = changed.awaitNanos(nanos);
            woken = false;
            return !closed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** One pass: fires every job due at the clock's now, at most {@link #BATCH}; returns how many ran. */
    public int runDue() {
        Instant now = clock.instant();
        List<CronJob> due = book.due(now, BATCH);
        int ran = 0;
        for (CronJob job : due) {
            if (closed) break;
            if (fire(job, now)) ran++;
        }
        return ran;
    }

    private boolean fire(CronJob job, Instant now) {
        Instant fireAt = job.nextFireAt();
        // one fire for however many were missed: the next one after now, never a burst of catch-ups
        Instant next = job.schedule().next(now.isAfter(fireAt) ? now : fireAt).orElse(null);
        Duration late = Duration.between(fireAt, now);
        if (late.compareTo(settings.get().maxAge()) > 0) {
            if (book.claimFire(job.id(), fireAt, next)) {
                log.warn(
                        "cron: job {} missed its run at {} by {} s, more than cron.max_age; skipped{}",
                        job.id(),
                        fireAt,
                        late.toSeconds(),
                        next == null ? " (it was its only run)" : ", next run at " + next);
            }
            return false;
        }
        if (!channelRunning.test(job.target().channel())) {
            if (book.claimFire(job.id(), fireAt, next)) {
                log.warn(
                        "cron: job {} is for channel {}, which is not running; run at {} skipped",
                        job.id(),
                        job.target().channel(),
                        fireAt);
            }
            return false;
        }
        Optional<InboxRecord> recorded = inbox.accept(CronFire.of(job, next));
        if (recorded.isEmpty()) {
            log.debug("cron: job {} run at {} was already taken", job.id(), fireAt);
            return false;
        }
        log.info(
                "cron: job {} fired for {} (run at {}, inbox {}){}",
                job.id(),
                job.session().display(),
                fireAt,
                recorded.get().id(),
                next == null ? "" : "; next run at " + next);
        return true;
    }

    @Override
    public void close() {
        closed = true;
        wake();
        if (thread != null) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
