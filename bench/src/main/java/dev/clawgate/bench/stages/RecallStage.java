package dev.clawgate.bench.stages;

import dev.clawgate.bench.BenchChannel;
import dev.clawgate.bench.recall.RecallSet;
import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.memory.MemoryContext;
import dev.clawgate.core.internal.memory.MemoryScopes;
import dev.clawgate.core.memory.HybridMemory;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.prompt.MemoryLine;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A direct chat's memory recall before its turn (SPEC ME-2, ME-3), keyword only ({@code memory.embedder = "none"}: the
 * gateway then recalls from the store's own {@link Memory}, as {@link HybridMemory#of} wires it), over a sender scope
 * holding {@link #memories} memories. They are the labelled recall set's 204 memories over and over, each copy numbered
 * ({@code bench/recall}), so a query matches about {@code memories / 204} copies of each memory sharing a term with it:
 * at 10,000 (the default {@code memory.max_entries_per_scope}) the index ranks dozens of candidates. The queries are
 * the set's 50 exact questions in turn. Recall only reads, so the scope stays as seeded.
 */
@State(Scope.Benchmark)
public class RecallStage {
    static final String SENDER = "user-1";

    @Param({"1000", "10000"})
    public int memories;

    public TempStore db;
    public Memory memory;
    public MemorySettings settings;
    public MemoryScopes scopes;
    String[] queries;
    private int nextQuery;

    @Setup(Level.Trial)
    public void seed() {
        db = TempStore.open("recall");
        settings = MemorySettings.defaults()
                .withEmbedding(EmbeddingSettings.defaults().withEmbedder(EmbeddingSettings.NONE));
        memory = HybridMemory.of(db.store().memory(), Optional.empty(), () -> settings);
        InboundMessage m = InboundMessage.direct(BenchChannel.NAME, "q", SENDER, "a question");
        scopes = MemoryScopes.of(m, SessionKey.of(m));
        RecallSet set = RecallSet.load();
        List<RecallSet.Memory> base = set.memories();
        for (int i = 0; i < memories; i++) {
            RecallSet.Memory b = base.get(i % base.size());
            memory.store(
                    scopes.home(),
                    "conversation_" + i,
                    b.text() + " (note " + (i / base.size() + 1) + ")",
                    MemoryEntry.CONVERSATION);
        }
        queries = set.queries().stream()
                .filter(q -> !q.paraphrase())
                .map(RecallSet.Query::text)
                .toArray(String[]::new);
    }

    @TearDown(Level.Trial)
    public void close() {
        db.close();
    }

    /** The next exact question of the set, in turn. */
    public String nextQuery() {
        String q = queries[nextQuery];
        nextQuery = (nextQuery + 1) % queries.length;
        return q;
    }

    /** What a turn does before building its prompt: recall over the turn's scope sets, then ME-3's filter. */
    public List<MemoryLine> recall(String query) {
        return MemoryContext.filter(MemoryContext.recall(memory, scopes, query, settings), settings);
    }
}
