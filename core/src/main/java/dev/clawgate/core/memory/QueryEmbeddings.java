package dev.clawgate.core.memory;

import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.EmbeddingException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A query's embedding, computed once and cached (SPEC ME-5): a turn recalls for two or three scope sets with the same
 * text, and a retried or repeated message asks again. At most {@link #CAPACITY} recent texts are kept, least recently
 * used dropped first, keyed by the stripped text (the model does not see surrounding blanks). A failing model answers
 * empty: recall goes on by keyword. The memory indexer takes a vector from here when a new memory's text is a query
 * just embedded (an auto-saved message is the turn's query), so that text is embedded once.
 */
final class QueryEmbeddings {
    private static final Logger log = LoggerFactory.getLogger(QueryEmbeddings.class);
    static final int CAPACITY = 256;

    private final Embedder embedder;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, float[]> cache = new LinkedHashMap<>(CAPACITY, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            return size() > CAPACITY;
        }
    };
    private final AtomicLong computed = new AtomicLong();

    QueryEmbeddings(Embedder embedder) {
        this.embedder = embedder;
    }

    Optional<float[]> of(String text) {
        String key = text.strip();
        Optional<float[]> hit = known(key);
        if (hit.isPresent()) return hit;
        float[] v;
        try {
            v = Vectors.unit(embedder.embed(key));
            computed.incrementAndGet();
        } catch (EmbeddingException | RuntimeException e) {
            log.warn("the query could not be embedded; recalling by keyword alone: {}", e.getMessage());
            return Optional.empty();
        }
        lock.lock();
        try {
            cache.put(key, v);
        } finally {
            lock.unlock();
        }
        return Optional.of(v);
    }

    /** The unit vector of {@code text} when it was embedded lately; never computes one. */
    Optional<float[]> known(String text) {
        lock.lock();
        try {
            return Optional.ofNullable(cache.get(text.strip()));
        } finally {
            lock.unlock();
        }
    }

    /** How many queries were embedded (not served from the cache) so far. */
    long computed() {
        return computed.get();
    }
}
