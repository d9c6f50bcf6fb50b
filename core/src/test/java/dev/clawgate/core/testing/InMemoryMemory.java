package dev.clawgate.core.testing;

import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.memory.Relevance;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/** The {@link Memory} contract in a list, scored by the same {@link Relevance} the stores use: for core tests. */
public final class InMemoryMemory implements Memory {
    private final ReentrantLock lock = new ReentrantLock();
    private final List<MemoryEntry> entries = new ArrayList<>();
    private final Clock clock;
    private final java.util.concurrent.atomic.AtomicInteger optimized = new java.util.concurrent.atomic.AtomicInteger();
    private long nextId = 1;

    public InMemoryMemory(Clock clock) {
        this.clock = clock;
    }

    /** Every entry, oldest first. */
    public List<MemoryEntry> all() {
        lock.lock();
        try {
            return List.copyOf(entries);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public MemoryEntry store(MemoryScope scope, String key, String content, String category) {
        if (key == null || key.isBlank() || content == null || content.isBlank() || !MemoryEntry.isCategory(category)) {
            throw new IllegalArgumentException("bad memory: " + key + " / " + category);
        }
        String text = content.strip();
        Instant now = clock.instant();
        lock.lock();
        try {
            Optional<MemoryEntry> same = entries.stream()
                    .filter(e -> e.scope().equals(scope) && e.content().equals(text))
                    .findFirst();
            if (same.isPresent()) {
                MemoryEntry kept = same.get();
                if (!kept.key().equals(key))
                    entries.removeIf(e -> e.scope().equals(scope) && e.key().equals(key));
                return replace(
                        kept,
                        new MemoryEntry(kept.id(), scope, kept.key(), text, kept.category(), kept.createdAt(), now));
            }
            Optional<MemoryEntry> old = find(scope, key);
            if (old.isPresent()) {
                return replace(
                        old.get(),
                        new MemoryEntry(
                                old.get().id(),
                                scope,
                                key,
                                text,
                                category,
                                old.get().createdAt(),
                                now));
            }
            MemoryEntry e = new MemoryEntry(nextId++, scope, key, text, category, now, now);
            entries.add(e);
            return e;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<Recalled> recall(String query, List<MemoryScope> scopes, int limit) {
        List<String> terms = Relevance.queryTerms(query);
        if (terms.isEmpty() || limit < 1) return List.of();
        lock.lock();
        try {
            var inScope = new LinkedHashSet<>(scopes);
            List<MemoryEntry> pool =
                    entries.stream().filter(e -> inScope.contains(e.scope())).toList();
            Map<MemoryEntry, List<String>> indexed = new HashMap<>();
            long total = 0;
            for (MemoryEntry e : pool) {
                List<String> t = Relevance.indexTerms(e.key(), e.content(), e.category());
                indexed.put(e, t);
                total += t.size();
            }
            Map<String, Long> withTerm = new HashMap<>();
            for (String t : terms)
                withTerm.put(
                        t, indexed.values().stream().filter(l -> l.contains(t)).count());
            var corpus = new Relevance.Corpus(pool.size(), pool.isEmpty() ? 0 : (double) total / pool.size(), withTerm);
            List<Recalled> out = new ArrayList<>();
            for (MemoryEntry e : pool) {
                double s = Relevance.score(terms, indexed.get(e), corpus);
                if (s > 0) out.add(new Recalled(e, s));
            }
            out.sort(Comparator.comparingDouble(Recalled::score).reversed());
            return List.copyOf(out.subList(0, Math.min(limit, out.size())));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean forget(MemoryScope scope, String key) {
        lock.lock();
        try {
            return entries.removeIf(e -> e.scope().equals(scope) && e.key().equals(key));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<MemoryEntry> get(MemoryScope scope, String key) {
        lock.lock();
        try {
            return find(scope, key);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<MemoryEntry> list(MemoryScope scope, int limit) {
        lock.lock();
        try {
            return entries.stream()
                    .filter(e -> e.scope().equals(scope))
                    .sorted(Comparator.comparing(MemoryEntry::updatedAt).reversed())
                    .limit(limit)
                    .toList();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int trim(MemoryScope scope, int maxEntries) {
        lock.lock();
        try {
            List<MemoryEntry> mine = entries.stream()
                    .filter(e -> e.scope().equals(scope))
                    .sorted(Comparator.comparing((MemoryEntry e) -> !MemoryEntry.CONVERSATION.equals(e.category()))
                            .thenComparing(MemoryEntry::updatedAt)
                            .thenComparing(MemoryEntry::id))
                    .toList();
            int excess = Math.max(0, mine.size() - maxEntries);
            entries.removeAll(mine.subList(0, excess));
            return excess;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int expire(String category, Instant before) {
        lock.lock();
        try {
            int n = entries.size();
            entries.removeIf(e -> e.category().equals(category) && e.updatedAt().isBefore(before));
            return n - entries.size();
        } finally {
            lock.unlock();
        }
    }

    private Optional<MemoryEntry> find(MemoryScope scope, String key) {
        return entries.stream()
                .filter(e -> e.scope().equals(scope) && e.key().equals(key))
                .findFirst();
    }

    private MemoryEntry replace(MemoryEntry old, MemoryEntry fresh) {
        entries.set(entries.indexOf(old), fresh);
        return fresh;
    }

    @Override
    public void optimize() {
        optimized.incrementAndGet();
    }

    /** How many times {@link #optimize} ran. */
    public int optimized() {
        return optimized.get();
    }
}
