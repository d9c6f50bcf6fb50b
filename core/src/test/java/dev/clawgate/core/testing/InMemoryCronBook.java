package dev.clawgate.core.testing;

import dev.clawgate.core.cron.CronBook;
import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.model.SessionKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/** A {@link CronBook} in a map, with the store's semantics: for unit tests of the cron tools and scheduler. */
public final class InMemoryCronBook implements CronBook {
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Long, CronJob> jobs = new TreeMap<>();
    private long nextId = 1;

    @Override
    public Optional<CronJob> add(CronJob job, int maxPerOwner) {
        lock.lock();
        try {
            if (list(job.session(), job.target().sender()).size() >= maxPerOwner) return Optional.empty();
            CronJob stored = new CronJob(
                    nextId++,
                    job.session(),
                    job.target(),
                    job.name(),
                    job.prompt(),
                    job.schedule(),
                    job.createdAt(),
                    job.nextFireAt());
            jobs.put(stored.id(), stored);
            return Optional.of(stored);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<CronJob> list(SessionKey session, String sender) {
        lock.lock();
        try {
            return jobs.values().stream().filter(j -> owns(j, session, sender)).toList();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<CronJob> all() {
        lock.lock();
        try {
            return List.copyOf(jobs.values());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean remove(long id, SessionKey session, String sender) {
        lock.lock();
        try {
            CronJob j = jobs.get(id);
            return j != null && owns(j, session, sender) && jobs.remove(id) != null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean remove(long id) {
        lock.lock();
        try {
            return jobs.remove(id) != null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<CronJob> due(Instant now, int limit) {
        lock.lock();
        try {
            List<CronJob> due = new ArrayList<>(jobs.values().stream()
                    .filter(j -> j.nextFireAt() != null && !j.nextFireAt().isAfter(now))
                    .toList());
            due.sort(Comparator.comparing(CronJob::nextFireAt));
            return due.subList(0, Math.min(limit, due.size()));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<Instant> nextFire() {
        lock.lock();
        try {
            return jobs.values().stream()
                    .map(CronJob::nextFireAt)
                    .filter(Objects::nonNull)
                    .min(Comparator.naturalOrder());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean claimFire(long id, Instant fireAt, Instant next) {
        lock.lock();
        try {
            CronJob j = jobs.get(id);
            if (j == null || !fireAt.equals(j.nextFireAt())) return false;
            if (next == null) {
                jobs.remove(id);
            } else {
                jobs.put(
                        id,
                        new CronJob(
                                id, j.session(), j.target(), j.name(), j.prompt(), j.schedule(), j.createdAt(), next));
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    private static boolean owns(CronJob j, SessionKey session, String sender) {
        return j.session().equals(session) && j.target().sender().equals(sender);
    }
}
