package dev.clawgate.core.memory;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.internal.memory.Fusion;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Hybrid recall (SPEC ME-5) over a store's {@link Memory}: the store's keyword candidates and the scope's nearest
 * vectors (exact cosine, or an approximate index past {@code memory.ann_threshold}), fused into one score on [0, 1]
 * ({@link Fusion}) so {@code memory.min_relevance} and the rest of ME-3 apply unchanged, as do ME-2's scopes (each half
 * reads only the scopes asked for). The query is embedded only when it is at least {@code memory.auto_save_min_chars}
 * long (shorter messages are greetings and acknowledgements) and once per text ({@link QueryEmbeddings}). Everything
 * but recall is the store's.
 */
public final class HybridMemory implements Memory {
    private final Memory store;
    private final Embedder embedder;
    private final Supplier<MemorySettings> settings;
    private final QueryEmbeddings queries;

    public HybridMemory(Memory store, Embedder embedder, Supplier<MemorySettings> settings) {
        this.store = Objects.requireNonNull(store, "store");
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.queries = new QueryEmbeddings(embedder);
    }

    /** {@code memory} with hybrid recall by {@code embedder}, or {@code memory} itself when there is none. */
    public static Memory of(Memory memory, Optional<Embedder> embedder, Supplier<MemorySettings> settings) {
        return embedder.<Memory>map(e -> new HybridMemory(memory, e, settings)).orElse(memory);
    }

    public Embedder embedder() {
        return embedder;
    }

    /** How many query texts were embedded (not served from the cache) so far: one per turn at most. */
    public long queriesEmbedded() {
        return queries.computed();
    }

    /**
     * The unit vector of {@code text} when a recall embedded it lately, without computing one: the memory indexer's
     * source for a memory whose text was just a query.
     */
    public Optional<float[]> knownEmbedding(String text) {
        return queries.known(text);
    }

    @Override
    public List<Recalled> recall(String query, List<MemoryScope> scopes, int limit) {
        return explain(query, scopes, limit).stream()
                .filter(h -> h.score() > 0)
                .map(HybridHit::recalled)
                .toList();
    }

    /** The hits of {@link #recall}, with each half's view of them, best first. */
    public List<HybridHit> explain(String query, List<MemoryScope> scopes, int limit) {
        return explain(query, scopes, limit, false);
    }

    /**
     * As {@link #explain(String, List, int)}; {@code anyLength} embeds a query shorter than the auto-save threshold too
     * (the CLI's search, where a few words are the whole question).
     */
    public List<HybridHit> explain(String query, List<MemoryScope> scopes, int limit, boolean anyLength) {
        List<MemoryScope> distinct = List.copyOf(new LinkedHashSet<>(scopes));
        if (limit < 1 || distinct.isEmpty() || query == null) return List.of();
        MemorySettings cfg = settings.get();
        EmbeddingSettings e = cfg.embedding();
        int wanted = Math.max(limit, e.candidates());
        List<Recalled> keyword = e.vectorWeight() >= 1 ? List.of() : store.recall(query, distinct, wanted);
        List<MemoryVectors.Similar> near = List.of();
        Optional<float[]> q =
                e.vectorWeight() <= 0 || (!anyLength && tooShort(query, cfg)) ? Optional.empty() : queries.of(query);
        if (q.isPresent())
            near = store.vectors().nearest(distinct, embedder.modelId(), q.get(), wanted, e.annThreshold());

        Map<Long, HybridHit> hits = new LinkedHashMap<>();
        for (int i = 0; i < keyword.size(); i++) {
            Recalled r = keyword.get(i);
            hits.put(r.entry().id(), new HybridHit(r.entry(), i + 1, r.score(), Double.NaN, 0));
        }
        for (MemoryVectors.Similar s : near) {
            HybridHit k = hits.get(s.entry().id());
            hits.put(
                    s.entry().id(),
                    k == null
                            ? new HybridHit(s.entry(), 0, 0, s.cosine(), 0)
                            : new HybridHit(k.entry(), k.keywordRank(), k.keywordScore(), s.cosine(), 0));
        }
        double best =
                near.stream().mapToDouble(MemoryVectors.Similar::cosine).max().orElse(Double.NaN);
        List<HybridHit> fused = new ArrayList<>(hits.size());
        for (HybridHit h : hits.values()) {
            double v = h.hasVector() ? Fusion.vectorRelevance(h.cosine(), best, embedder.calibration()) : 0;
            double score = Fusion.fuse(h.keywordScore(), v, e.vectorWeight());
            fused.add(new HybridHit(h.entry(), h.keywordRank(), h.keywordScore(), h.cosine(), score));
        }
        fused.sort(Comparator.comparingDouble(HybridHit::score)
                .reversed()
                .thenComparing(
                        Comparator.comparingDouble(HybridHit::keywordScore).reversed())
                .thenComparing(h -> h.entry().updatedAt(), Comparator.reverseOrder()));
        return List.copyOf(fused.subList(0, Math.min(limit, fused.size())));
    }

    private static boolean tooShort(String query, MemorySettings cfg) {
        String t = query.strip();
        return t.codePointCount(0, t.length()) < cfg.autoSaveMinChars();
    }

    @Override
    public MemoryEntry store(MemoryScope scope, String key, String content, String category) {
        return store.store(scope, key, content, category);
    }

    @Override
    public boolean forget(MemoryScope scope, String key) {
        return store.forget(scope, key);
    }

    @Override
    public Optional<MemoryEntry> get(MemoryScope scope, String key) {
        return store.get(scope, key);
    }

    @Override
    public List<MemoryEntry> list(MemoryScope scope, int limit) {
        return store.list(scope, limit);
    }

    @Override
    public int trim(MemoryScope scope, int maxEntries) {
        return store.trim(scope, maxEntries);
    }

    @Override
    public int expire(String category, Instant before) {
        return store.expire(category, before);
    }

    @Override
    public MemoryVectors vectors() {
        return store.vectors();
    }
}
