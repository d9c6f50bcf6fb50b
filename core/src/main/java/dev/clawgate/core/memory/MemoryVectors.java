package dev.clawgate.core.memory;

import java.util.List;

/**
 * The vector half of long-term memory (SPEC ME-5): each entry's embedding, stored with its row with the id of the model
 * that made it. Vectors are written off the reply path ({@link MemoryIndexer}); an entry without one (not embedded yet,
 * or embedded by another model) is still found by keyword. Thread-safe; failures are
 * {@link dev.clawgate.core.store.StoreException}s.
 */
public interface MemoryVectors {

    /** An entry whose vector is missing or was made by another model. */
    record Pending(long id, String content, String contentHash) {}

    /** An entry and the cosine similarity of its vector to the query's. */
    record Similar(MemoryEntry entry, double cosine) {}

    /** How many entries there are in all, and how many hold a vector of the model asked about. */
    record Progress(long entries, long embedded) {
        public long missing() {
            return entries - embedded;
        }
    }

    /** Entries with an id above {@code afterId} and no vector of {@code modelId}, lowest id first, at most limit. */
    List<Pending> pending(String modelId, long afterId, int limit);

    /**
     * Keeps {@code vector} as entry {@code id}'s, made by {@code modelId}, if the entry still holds the content whose
     * SHA-256 is {@code contentHash}; false when it was changed or forgotten meanwhile (the vector would be stale).
     */
    boolean put(long id, String contentHash, String modelId, float[] vector);

    /**
     * The entries of {@code scopes} with a vector of {@code modelId}, most similar to {@code query} first, at most
     * {@code limit}: exact cosine over the scopes' rows.
     */
    List<Similar> nearest(List<MemoryScope> scopes, String modelId, float[] query, int limit);

    /**
     * As {@link #nearest(List, String, float[], int)}, but a scope holding at least {@code annThreshold} vectors of the
     * model may be searched through an approximate index ({@code memory.ann_threshold}): its candidates are still
     * scored by exact cosine on the stored rows, but a near entry can be missed. A store without such an index scans.
     */
    default List<Similar> nearest(
            List<MemoryScope> scopes, String modelId, float[] query, int limit, int annThreshold) {
        return nearest(scopes, modelId, query, limit);
    }

    Progress progress(String modelId);

    /** How recall searches the vectors of one scope past {@code memory.ann_threshold}. */
    enum Search {
        /** Through its approximate index, which is ready. */
        INDEX_READY,
        /** Its index is being built in the background; the exact scan serves meanwhile. */
        INDEX_BUILDING,
        /** Exactly, until a build starts (at gateway start, or at the first recall that finds the scope). */
        EXACT_NOT_BUILT,
        /** Exactly, for good: its index would take more than its share of the heap. */
        EXACT_TOO_LARGE
    }

    /** A scope holding {@code vectors} vectors of a model, at least {@code memory.ann_threshold}, and its search. */
    record LargeScope(String scope, long vectors, Search search) {}

    /**
     * The scopes holding at least {@code annThreshold} vectors of {@code modelId}, each with how recall searches it in
     * this process. Empty for a store without approximate indexes.
     */
    default List<LargeScope> largeScopes(String modelId, int annThreshold) {
        return List.of();
    }

    /**
     * Starts, in the background and at low priority, the approximate indexes of the scopes already holding at least
     * {@code annThreshold} vectors of {@code modelId}, one at a time; recall scans them exactly until each is ready.
     * Returns at once. Nothing for a store without approximate indexes.
     */
    default void indexLargeScopes(String modelId, int annThreshold) {}

    /** No vectors: nothing is pending, nothing is kept, nothing is near. */
    MemoryVectors NONE = new MemoryVectors() {
        @Override
        public List<Pending> pending(String modelId, long afterId, int limit) {
            return List.of();
        }

        @Override
        public boolean put(long id, String contentHash, String modelId, float[] vector) {
            return false;
        }

        @Override
        public List<Similar> nearest(List<MemoryScope> scopes, String modelId, float[] query, int limit) {
            return List.of();
        }

        @Override
        public Progress progress(String modelId) {
            return new Progress(0, 0);
        }
    };
}
