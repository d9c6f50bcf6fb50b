package dev.clawgate.core.internal.memory;

import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Relevance;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The {@code dedupe} half of consolidation (SPEC ME-6, ME-7): identical memories are already stored once (content
 * hash); this merges the near-identical ones ("Remember: the deploy window is Tuesday" and "remember, the deploy window
 * is Tuesday!") into the newest, without a model call. Two texts are near-duplicates when their word sets are equal, or
 * when both have at least {@link #MIN_WORDS} distinct words, overlap by at least {@link #THRESHOLD} (Jaccard), and
 * differ in no negation ("not", "never", ...): a newer "I do not eat fish" is not the old "I eat fish".
 */
public final class NearDuplicates {
    static final double THRESHOLD = 0.85;
    static final int MIN_WORDS = 4;
    /** How many of a scope's entries one merge looks at, most recently updated first: bounded work per turn. */
    static final int SCAN_LIMIT = 500;

    private static final Set<String> NEGATIONS = Set.of(
            "not", "no", "never", "nor", "none", "nothing", "without", "don", "doesn", "didn", "isn", "aren", "wasn",
            "weren", "won", "wouldn", "cannot", "couldn", "shouldn", "t");

    private NearDuplicates() {}

    /** Whether {@code a} and {@code b} say the same thing in nearly the same words. */
    public static boolean similar(String a, String b) {
        Set<String> x = new HashSet<>(Relevance.words(a));
        Set<String> y = new HashSet<>(Relevance.words(b));
        if (x.isEmpty() || y.isEmpty()) return false;
        if (x.equals(y)) return true;
        if (Math.min(x.size(), y.size()) < MIN_WORDS) return false;
        Set<String> union = new HashSet<>(x);
        union.addAll(y);
        Set<String> common = new HashSet<>(x);
        common.retainAll(y);
        for (String w : union) {
            if (!common.contains(w) && NEGATIONS.contains(w)) return false;
        }
        return (double) common.size() / union.size() >= THRESHOLD;
    }

    /**
     * Forgets every entry of {@code scope} that {@code candidates} accepts and that near-duplicates one of
     * {@code keep}; the kept entries themselves stay. Returns what was forgotten.
     */
    public static List<MemoryEntry> absorb(
            Memory memory, MemoryScope scope, List<MemoryEntry> keep, Predicate<MemoryEntry> candidates) {
        if (keep.isEmpty()) return List.of();
        Set<Long> kept = new HashSet<>();
        for (MemoryEntry k : keep) kept.add(k.id());
        List<MemoryEntry> forgotten = new ArrayList<>();
        for (MemoryEntry e : memory.list(scope, SCAN_LIMIT)) {
            if (kept.contains(e.id()) || !candidates.test(e)) continue;
            boolean duplicate = keep.stream().anyMatch(k -> similar(k.content(), e.content()));
            if (duplicate && memory.forget(scope, e.key())) forgotten.add(e);
        }
        return forgotten;
    }
}
