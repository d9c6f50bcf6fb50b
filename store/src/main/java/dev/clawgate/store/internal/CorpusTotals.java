package dev.clawgate.store.internal;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The count of entries and of their terms in a recall's scopes, which keyword scoring divides by (BM25's corpus size
 * and average length). Counting reads every entry of the scopes, so a recall would grow with the scope (2 ms of CPU at
 * 10,000 memories, bench/RESULTS.md, issue 27): a large scope's totals are kept for {@link #TTL_NANOS} instead. They
 * move by one entry per turn at most, and a few percent off in either changes a score by less than that, so a slightly
 * old figure ranks the same; a scope set under {@link #EXACT_BELOW} entries is counted every time (cheap, and exact
 * where one entry more or less matters).
 */
final class CorpusTotals {
    /** Scope sets smaller than this are counted at every recall. */
    static final long EXACT_BELOW = 2_000;

    static final long TTL_NANOS = 30_000_000_000L;

    /** Cached sets at most; past it the cache starts over (each entry is a large scope set, so this is seldom). */
    static final int MAX_ENTRIES = 4_096;

    private record Totals(long entries, long terms, long at) {}

    @FunctionalInterface
    interface Count {
        long[] totals() throws SQLException;
    }

    @FunctionalInterface
    interface TermCount {
        long entries() throws SQLException;
    }

    private record TermKey(List<String> scopeIds, String term) {}

    private final ConcurrentHashMap<List<String>, Totals> cache = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<TermKey, Totals> terms = new ConcurrentHashMap<>();
    private final LongSupplier nanos;

    CorpusTotals(LongSupplier nanos) {
        this.nanos = nanos;
    }

    /** {@code [entries, terms]} of the scope set {@code scopeIds}, from the cache or from {@code count}. */
    long[] of(List<String> scopeIds, Count count) throws SQLException {
        long now = nanos.getAsLong();
        Totals t = cache.get(scopeIds);
        if (t != null && now - t.at() < TTL_NANOS) return new long[] {t.entries(), t.terms()};
        long[] fresh = count.totals();
        if (fresh[0] < EXACT_BELOW) {
            cache.remove(scopeIds);
        } else {
            if (cache.size() >= MAX_ENTRIES) cache.clear();
            cache.put(scopeIds, new Totals(fresh[0], fresh[1], now));
        }
        return fresh;
    }

    /**
     * How many entries of the scope set {@code scopeIds} (of {@code setSize} entries) hold {@code term}: from the cache
     * for a large set, counted for a small one.
     */
    long withTerm(List<String> scopeIds, long setSize, String term, TermCount count) throws SQLException {
        if (setSize < EXACT_BELOW) return count.entries();
        long now = nanos.getAsLong();
        TermKey key = new TermKey(scopeIds, term);
        Totals t = terms.get(key);
        if (t != null && now - t.at() < TTL_NANOS) return t.entries();
        long fresh = count.entries();
        if (terms.size() >= MAX_ENTRIES) terms.clear();
        terms.put(key, new Totals(fresh, 0, now));
        return fresh;
    }
}
