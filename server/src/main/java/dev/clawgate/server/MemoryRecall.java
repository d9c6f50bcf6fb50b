package dev.clawgate.server;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.Embedders;
import dev.clawgate.core.memory.HybridMemory;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryIndexer;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's memory recall mode (SPEC ME-5): hybrid when {@code memory.embedder} yields an embedder (the local model
 * by default), keyword only otherwise, said once in the log at start. With an embedder, the memory indexer back-fills
 * vectors in the background and the consolidation worker has it embed each turn's new memories, so storing a vector
 * never delays a reply. The approximate indexes of scopes already past {@code memory.ann_threshold} are built in the
 * background from the start, one at a time; recall scans those scopes exactly until theirs is ready.
 */
public final class MemoryRecall implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MemoryRecall.class);
    /** Memories embedded per batch of the back-fill: bounded work between two looks at closing. */
    static final int BATCH = 32;
    /** How often the indexer looks for memories stored without a turn (the memory tools, consolidation off). */
    static final Duration POLL = Duration.ofSeconds(30);

    private final Embedders.Selection selection;
    private final Memory memory;
    private final MemoryIndexer indexer;

    private MemoryRecall(Embedders.Selection selection, Memory memory, MemoryIndexer indexer) {
        this.selection = selection;
        this.memory = memory;
        this.indexer = indexer;
    }

    /** Picks the embedder of {@code cfg} and, when there is one, starts the indexer over {@code store}'s vectors. */
    public static MemoryRecall start(Memory store, ClawgateConfig cfg, Supplier<MemorySettings> settings) {
        Embedders.Selection s = cfg.memory().enabled()
                ? Embedders.select(cfg.memory().embedding(), cfg.providers())
                : Embedders.Selection.keywordOnly("memory is off", false);
        if (s.fault()) log.warn("memory recall: {}", s.mode());
        else log.info("memory recall: {}", s.mode());
        if (s.embedder().isEmpty()) return new MemoryRecall(s, store, null);
        Embedder e = s.embedder().get();
        HybridMemory hybrid = new HybridMemory(store, e, settings);
        // an auto-saved message is its turn's query: the indexer takes the query's vector instead of embedding it again
        MemoryIndexer indexer = new MemoryIndexer(store.vectors(), e, BATCH, POLL, hybrid::knownEmbedding).start();
        // scopes already past ann_threshold get their indexes now, in the background, not at their first recall
        store.vectors().indexLargeScopes(e.modelId(), settings.get().embedding().annThreshold());
        MemoryRecall recall = new MemoryRecall(s, hybrid, indexer);
        return recall;
    }

    /** The warm-up's thread: the model must not be closed while its native session is being made (the JVM aborts). */
    private volatile Thread warming;

    /**
     * Loads the embedding model in the background. The local model loads on first use (about a second of CPU): the
     * gateway calls this once its listeners and server are up, so the start does not share its cores with the load, and
     * a first turn seldom waits for it (one that comes sooner loads it, and the warm-up waits for that).
     */
    public void warmUpInBackground() {
        if (selection.embedder().isEmpty() || warming != null) return;
        Embedder e = selection.embedder().get();
        warming = Thread.ofVirtual().name("embedder-warm-up").start(() -> warmUp(e));
    }

    private static void warmUp(Embedder e) {
        try {
            e.embed("warm up");
        } catch (dev.clawgate.core.embedding.EmbeddingException ex) {
            log.warn(
                    "memory recall: the embedder does not work; recall finds by keyword until it does: {}",
                    ex.getMessage());
        }
    }

    /** The memory turns and tools use: hybrid recall, or the store's own. */
    public Memory memory() {
        return memory;
    }

    /** Which mode is active, and why. */
    public String mode() {
        return selection.mode();
    }

    /** The id of the embedder's model, when recall is hybrid. */
    public Optional<String> modelId() {
        return selection.embedder().map(Embedder::modelId);
    }

    public Optional<MemoryIndexer> indexer() {
        return Optional.ofNullable(indexer);
    }

    /** Embeds the memories a turn stored; run by the consolidation worker, off the reply path. */
    public void afterTurn() {
        if (indexer != null) indexer.indexPending();
    }

    @Override
    public void close() {
        if (indexer != null) indexer.close();
        Thread w = warming;
        if (w != null) {
            try {
                if (!w.join(java.time.Duration.ofSeconds(60))) log.warn("memory recall: the model is still loading");
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        selection.embedder().ifPresent(Embedder::close);
    }
}
