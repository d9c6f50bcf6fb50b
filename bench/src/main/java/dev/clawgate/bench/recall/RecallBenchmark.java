package dev.clawgate.bench.recall;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.Embedders;
import dev.clawgate.core.memory.HybridMemory;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Vectors;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Issue 25's measurements, printed as Markdown: recall quality on the labelled set, the embedding cost, hybrid recall's
 * latency at 1,000 and 100,000 memories in one scope (random vectors, with the real query path), the CPU a turn's
 * recall costs, and RSS with the model loaded. Run: see bench/RESULTS.md ("Hybrid memory recall").
 */
public final class RecallBenchmark {
    private RecallBenchmark() {}

    public static void main(String[] args) throws Exception {
        int[] sizes = args.length > 0
                ? Arrays.stream(args[0].split(","))
                        .filter(x -> !x.isBlank())
                        .mapToInt(Integer::parseInt)
                        .toArray()
                : new int[] {1_000, 100_000};
        long rssBefore = rssKib();
        Embedders.Selection sel = Embedders.select(EmbeddingSettings.defaults(), Map.of());
        Embedder model = sel.embedder().orElseThrow(() -> new IllegalStateException(sel.mode()));
        // -Dcalibration=FLOOR,CEILING tries another mapping of cosine onto [0, 1] than the model's own
        String cal = System.getProperty("calibration");
        Embedder embedder = cal == null ? model : recalibrated(model, cal);
        System.out.println("calibration: " + embedder.calibration());
        embedder.embed("warm up the model once");
        long rssModel = rssKib();
        System.out.println("## " + sel.mode());
        System.out.printf(
                Locale.ROOT,
                "RSS before the model: %.1f MiB; with it loaded and run once: %.1f MiB%n%n",
                rssBefore / 1024.0,
                rssModel / 1024.0);

        RecallSet set = RecallSet.load();
        for (RecallSet.Query q : set.queries()) {
            if (q.paraphrase() && !set.sharedTerms(q).isEmpty())
                throw new IllegalStateException("paraphrase '" + q.text() + "' shares " + set.sharedTerms(q));
        }
        Path dir = Files.createTempDirectory("recall-bench");
        try (Store store = Stores.open(null, dir.resolve("quality"))) {
            long c0m = cpu();
            double perMemory = RecallQuality.load(store.memory(), embedder, set);
            double cpuPerMemory = (cpu() - c0m) / 1e6 / set.memories().size();
            System.out.printf(
                    Locale.ROOT,
                    "%d memories, %d queries (%d paraphrases sharing no indexed term)%n",
                    set.memories().size(),
                    set.queries().size(),
                    set.queries().stream().filter(RecallSet.Query::paraphrase).count());
            System.out.println("\n| mode | queries | n | recall@4 | MRR | injected@4 (top 4 and >= min_relevance 0.4)"
                    + " | wrong memories injected per query |");
            System.out.println("|---|---|---|---|---|---|---|");
            for (RecallQuality.Row r : RecallQuality.measure(store.memory(), embedder, set)) System.out.println(r);
            System.out.println();
            System.out.println(RecallQuality.cosines(embedder, set).replace("\n", "  \n"));
            System.out.printf(
                    Locale.ROOT,
                    "%nembedding per memory (back-fill, batches of 32, resting as long as it works): %.2f ms wall,"
                            + " %.2f ms CPU%n",
                    perMemory,
                    cpuPerMemory);
            long t0 = System.nanoTime();
            long c0 = cpu();
            for (RecallSet.Query q : set.queries()) embedder.embed(q.text());
            System.out.printf(
                    Locale.ROOT,
                    "embedding per query: %.2f ms wall, %.2f ms CPU%n",
                    (System.nanoTime() - t0) / 1e6 / set.queries().size(),
                    (cpu() - c0) / 1e6 / set.queries().size());
            System.out.printf(Locale.ROOT, "RSS after the quality run: %.1f MiB%n%n", rssKib() / 1024.0);
        }
        System.out.println("| memories in the scope | keyword only p50 / p99 ms | hybrid p50 / p99 ms"
                + " | hybrid CPU per recall ms (process) |");
        System.out.println("|---|---|---|---|");
        for (int n : sizes) latency(dir.resolve("scale-" + n), embedder, set, n);
        System.out.printf(Locale.ROOT, "%nRSS at the end: %.1f MiB%n", rssKib() / 1024.0);
        embedder.close();
        // the 100,000-memory store is a few hundred MB
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    /** Recall latency over {@code n} memories of one scope with random unit vectors; the query vectors are cached. */
    static void latency(Path dir, Embedder embedder, RecallSet set, int n) throws Exception {
        try (Store store = Stores.open(null, dir)) {
            Memory memory = store.memory();
            memory.store(RecallQuality.SCOPE, "seed", "seed memory", MemoryEntry.CORE);
        }
        fill(dir.resolve(Stores.DEFAULT_FILE_NAME), embedder, n);
        try (Store store = Stores.open(null, dir)) {
            Memory memory = store.memory();
            List<MemoryScope> scope = List.of(RecallQuality.SCOPE);
            MemorySettings kw = MemorySettings.defaults()
                    .withEmbedding(new EmbeddingSettings(EmbeddingSettings.LOCAL, null, 0, 25));
            HybridMemory hybrid = new HybridMemory(memory, embedder, MemorySettings::defaults);
            HybridMemory keyword = new HybridMemory(memory, embedder, () -> kw);
            for (RecallSet.Query q : set.queries()) hybrid.recall(q.text(), scope, 5);
            long[] k = time(keyword, set, scope, null);
            long[] cpu = new long[1];
            long[] h = time(hybrid, set, scope, cpu);
            System.out.printf(
                    Locale.ROOT,
                    "| %,d | %.2f / %.2f | %.2f / %.2f | %.2f |%n",
                    n,
                    k[0] / 1e6,
                    k[1] / 1e6,
                    h[0] / 1e6,
                    h[1] / 1e6,
                    cpu[0] / 1e6);
        }
    }

    static Embedder recalibrated(Embedder model, String floorCeiling) {
        String[] fc = floorCeiling.split(",");
        Embedder.Calibration c = new Embedder.Calibration(Double.parseDouble(fc[0]), Double.parseDouble(fc[1]));
        return new Embedder() {
            @Override
            public String modelId() {
                return model.modelId();
            }

            @Override
            public int dimensions() {
                return model.dimensions();
            }

            @Override
            public float[] embed(String text) throws dev.clawgate.core.embedding.EmbeddingException {
                return model.embed(text);
            }

            @Override
            public List<float[]> embedAll(List<String> texts) throws dev.clawgate.core.embedding.EmbeddingException {
                return model.embedAll(texts);
            }

            @Override
            public Calibration calibration() {
                return c;
            }
        };
    }

    static long[] time(HybridMemory m, RecallSet set, List<MemoryScope> scope, long[] cpuPerCall) {
        List<Long> ns = new ArrayList<>();
        long c0 = cpu();
        for (int round = 0; round < 3; round++) {
            for (RecallSet.Query q : set.queries()) {
                long t0 = System.nanoTime();
                m.recall(q.text(), scope, 5);
                ns.add(System.nanoTime() - t0);
            }
        }
        if (cpuPerCall != null) cpuPerCall[0] = (cpu() - c0) / ns.size();
        List<Long> s = ns.stream().sorted().toList();
        return new long[] {s.get(s.size() / 2), s.get((int) (s.size() * 0.99))};
    }

    /** {@code n} synthetic memories in the bench scope, written as the store writes them, in one transaction. */
    static void fill(Path file, Embedder embedder, int n) throws Exception {
        fill(file, embedder.modelId(), n, r -> {
            float[] v = new float[embedder.dimensions()];
            for (int d = 0; d < v.length; d++) v[d] = (float) r.nextGaussian();
            return v;
        });
    }

    /** As {@link #fill(Path, Embedder, int)}, each vector drawn by {@code vectors}. */
    static void fill(Path file, String modelId, int n, java.util.function.Function<Random, float[]> vectors)
            throws Exception {
        Random random = new Random(25);
        String[] words =
                "garden invoice train school dinner server backup flight doctor music rent coffee holiday".split(" ");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            c.setAutoCommit(false);
            long scopeNo;
            try (var st = c.createStatement();
                    var rs = st.executeQuery(
                            "SELECT id FROM memory_scopes WHERE scope = '" + RecallQuality.SCOPE.id() + "'")) {
                rs.next();
                scopeNo = rs.getLong(1);
            }
            try (PreparedStatement m = c.prepareStatement("INSERT INTO memories (scope, mkey, content, category,"
                            + " content_hash, terms, term_count, created_at, updated_at, embedding, embedding_model)"
                            + " VALUES (?, ?, ?, 'conversation', ?, ?, 3, 1, 1, ?, ?) RETURNING id");
                    PreparedStatement f = c.prepareStatement("INSERT INTO memory_fts (rowid, terms) VALUES (?, ?)")) {
                for (int i = 0; i < n; i++) {
                    String a = words[random.nextInt(words.length)];
                    String b = words[random.nextInt(words.length)];
                    String terms = a + " " + b + " note" + i;
                    float[] v = vectors.apply(random);
                    m.setString(1, RecallQuality.SCOPE.id());
                    m.setString(2, "synthetic_" + i);
                    m.setString(3, "note " + i + " about " + a + " and " + b);
                    m.setString(4, "hash" + i);
                    m.setString(5, terms);
                    m.setBytes(6, Vectors.toBytes(Vectors.unit(v)));
                    m.setString(7, modelId);
                    long id;
                    try (var rs = m.executeQuery()) {
                        rs.next();
                        id = rs.getLong(1);
                    }
                    f.setLong(1, id);
                    f.setString(2, scopeNo + "_" + terms.replace(" ", " " + scopeNo + "_"));
                    f.executeUpdate();
                }
            }
            c.commit();
        }
    }

    /** The process's CPU time: ONNX Runtime and SQLite work on threads of their own too. */
    static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static long rssKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        } catch (java.io.IOException e) {
            return -1;
        }
        return -1;
    }
}
