package dev.clawgate.embeddings;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.EmbedderFactory;
import dev.clawgate.core.embedding.EmbeddingException;

/** {@code memory.embedder = "local"} (the default): the model in this module's jar (SPEC ME-5). */
public final class LocalEmbedderFactory implements EmbedderFactory {
    @Override
    public String kind() {
        return LOCAL;
    }

    @Override
    public Embedder create(ProviderSettings provider, String model) throws EmbeddingException {
        return new LocalEmbedder();
    }
}
