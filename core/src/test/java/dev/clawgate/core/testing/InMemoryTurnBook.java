package dev.clawgate.core.testing;

import dev.clawgate.core.inspect.TurnBook;
import dev.clawgate.core.inspect.TurnSummary;
import dev.clawgate.core.inspect.TurnTrace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/** The {@link TurnBook} of {@link InMemoryStore}: the same contract as the JDBC one (SPEC OP-8). */
public final class InMemoryTurnBook implements TurnBook {
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Long, TurnTrace> turns = new TreeMap<>();
    private long nextId = 1;

    @Override
    public long record(TurnTrace trace) {
        lock.lock();
        try {
            long id = nextId++;
            turns.put(id, new TurnTrace(trace.summary().withId(id), trace.phases(), trace.prompt()));
            return id;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<TurnSummary> list(String session, Instant since, int limit) {
        int max = Math.clamp(limit, 1, MAX_LIST);
        lock.lock();
        try {
            return turns.values().stream()
                    .map(TurnTrace::summary)
                    .filter(t -> session == null || session.equals(t.session().display()))
                    .filter(t -> since == null || !t.startedAt().isBefore(since))
                    .sorted(Comparator.comparing(TurnSummary::startedAt)
                            .thenComparing(TurnSummary::id)
                            .reversed())
                    .limit(max)
                    .toList();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<TurnTrace> find(long turnId) {
        lock.lock();
        try {
            return Optional.ofNullable(turns.get(turnId));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<TurnSummary> findByInbox(long inboxId) {
        lock.lock();
        try {
            List<TurnSummary> found = new ArrayList<>();
            for (TurnTrace t : turns.values()) {
                if (t.summary().inboxId() == inboxId) found.add(t.summary());
            }
            return found;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int prune(Instant before) {
        lock.lock();
        try {
            int before0 = turns.size();
            turns.values().removeIf(t -> t.summary().startedAt().isBefore(before));
            return before0 - turns.size();
        } finally {
            lock.unlock();
        }
    }
}
