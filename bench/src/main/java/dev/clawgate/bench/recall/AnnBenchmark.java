package dev.clawgate.bench.recall;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.Embedders;
import dev.clawgate.core.memory.HybridMemory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.MemoryVectors;
import dev.clawgate.core.memory.Vectors;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import dev.clawgate.store.internal.JdbcMemoryVectors;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Hybrid recall's latency with the vector half exact and through the approximate index (SPEC ME-5,
 * {@code memory.ann_threshold}), at the sizes given (default 1,000 and 100,000 memories in one scope: vectors blended
 * from the labelled set's embeddings, or random unit vectors as in {@link RecallBenchmark} with {@code -Drandom=true}),
 * with the index's build time, its heap and its recall of the exact search's candidates. Run: see bench/RESULTS.md
 * ("Approximate index").
 */
public final class AnnBenchmark {
    private AnnBenchmark() {}

    public static void main(String[] args) throws Exception {
        int[] sizes = args.length > 0
                ? Arrays.stream(args[0].split(",")).mapToInt(Integer::parseInt).toArray()
                : new int[] {1_000, 100_000};
        Embedders.Selection sel = Embedders.select(EmbeddingSettings.defaults(), Map.of());
        Embedder embedder = sel.embedder().orElseThrow(() -> new IllegalStateException(sel.mode()));
        RecallSet set = RecallSet.load();
        Path dir = Files.createTempDirectory("ann-bench");
        System.out.println("| memories in the scope | hybrid, exact scan p50 / p99 ms | CPU per recall ms"
                + " | hybrid, HNSW p50 / p99 ms | CPU per recall ms | index build s | index heap MiB"
                + " | vector candidates recall vs exact |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (int n : sizes) run(dir.resolve("ann-" + n), embedder, set, n);
        embedder.close();
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    static void run(Path dir, Embedder embedder, RecallSet set, int n) throws Exception {
        try (Store store = Stores.open(null, dir)) {
            store.memory().store(RecallQuality.SCOPE, "seed", "seed memory", MemoryEntry.CORE);
        }
        if (Boolean.getBoolean("random")) RecallBenchmark.fill(dir.resolve(Stores.DEFAULT_FILE_NAME), embedder, n);
        else {
            // vectors near the real memories' embeddings: a topic (one memory) blended with a second and noise, so
            // the scope is clustered the way sentence embeddings are (random vectors have no near neighbours at all)
            List<float[]> topics = new ArrayList<>();
            for (float[] v : embedder.embedAll(
                    set.memories().stream().map(RecallSet.Memory::text).toList())) topics.add(Vectors.unit(v));
            RecallBenchmark.fill(dir.resolve(Stores.DEFAULT_FILE_NAME), embedder.modelId(), n, r -> {
                float[] a = topics.get(r.nextInt(topics.size()));
                float[] b = topics.get(r.nextInt(topics.size()));
                double mix = 0.5 * r.nextDouble();
                float[] v = new float[a.length];
                for (int d = 0; d < v.length; d++) v[d] = (float) (a[d] + mix * b[d] + 0.04 * r.nextGaussian());
                return Vectors.unit(v);
            });
        }
        try (Store store = Stores.open(null, dir)) {
            List<MemoryScope> scope = List.of(RecallQuality.SCOPE);
            int threshold = Math.min(n, 1_000);
            MemorySettings exactCfg = MemorySettings.defaults()
                    .withEmbedding(new EmbeddingSettings(EmbeddingSettings.LOCAL, null, 0.5, 25, Integer.MAX_VALUE));
            MemorySettings annCfg = MemorySettings.defaults()
                    .withEmbedding(new EmbeddingSettings(EmbeddingSettings.LOCAL, null, 0.5, 25, threshold));
            HybridMemory exact = new HybridMemory(store.memory(), embedder, () -> exactCfg);
            HybridMemory ann = new HybridMemory(store.memory(), embedder, () -> annCfg);
            for (RecallSet.Query q : set.queries()) exact.recall(q.text(), scope, 5); // embeds each query once
            long[] ce = new long[1];
            long[] e = RecallBenchmark.time(exact, set, scope, ce);

            JdbcMemoryVectors vectors = (JdbcMemoryVectors) store.memory().vectors();
            long heap0 = usedHeapAfterGc();
            long t0 = System.nanoTime();
            ann.recall(set.queries().getFirst().text(), scope, 5); // scans, and starts the index's build
            while (!vectors.approximate(RecallQuality.SCOPE, embedder.modelId(), threshold)) Thread.sleep(20);
            double buildS = (System.nanoTime() - t0) / 1e9;
            long heap = usedHeapAfterGc() - heap0;
            long[] ca = new long[1];
            long[] a = RecallBenchmark.time(ann, set, scope, ca);

            int found = 0;
            int asked = 0;
            List<Long> exactNs = new ArrayList<>();
            List<Long> annNs = new ArrayList<>();
            for (RecallSet.Query q : set.queries()) {
                float[] v = embedder.embed(q.text());
                long s0 = System.nanoTime();
                Set<Long> want = ids(vectors.nearest(scope, embedder.modelId(), v, 25, Integer.MAX_VALUE));
                long t1 = System.nanoTime();
                Set<Long> got = ids(vectors.nearest(scope, embedder.modelId(), v, 25, threshold));
                annNs.add(System.nanoTime() - t1);
                exactNs.add(t1 - s0);
                asked += want.size();
                got.retainAll(want);
                found += got.size();
            }
            System.out.printf(
                    Locale.ROOT,
                    "vector half alone at %,d, p50 / p99 ms: exact %s, HNSW %s%n",
                    n,
                    percentiles(exactNs),
                    percentiles(annNs));
            System.out.printf(
                    Locale.ROOT,
                    "| %,d | %.2f / %.2f | %.2f | %.2f / %.2f | %.2f | %.1f | %.1f | %.3f |%n",
                    n,
                    e[0] / 1e6,
                    e[1] / 1e6,
                    ce[0] / 1e6,
                    a[0] / 1e6,
                    a[1] / 1e6,
                    ca[0] / 1e6,
                    buildS,
                    heap / 1048576.0,
                    (double) found / asked);
        }
    }

    static String percentiles(List<Long> ns) {
        List<Long> s = ns.stream().sorted().toList();
        return String.format(
                Locale.ROOT, "%.2f / %.2f", s.get(s.size() / 2) / 1e6, s.get((int) (s.size() * 0.99)) / 1e6);
    }

    static Set<Long> ids(List<MemoryVectors.Similar> hits) {
        Set<Long> out = new HashSet<>();
        for (MemoryVectors.Similar s : hits) out.add(s.entry().id());
        return out;
    }

    static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
