package dev.clawgate.provider.openai;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.embedding.Embedder;
import dev.clawgate.core.embedding.EmbedderFactory;
import dev.clawgate.core.embedding.EmbeddingException;

/** {@code memory.embedder = "<name>"} of a provider of kind {@code openai}: its {@code /v1/embeddings} (SPEC ME-5). */
public final class OpenAiEmbedderFactory implements EmbedderFactory {
    @Override
    public String kind() {
        return "openai";
    }

    @Override
    public Embedder create(ProviderSettings provider, String model) throws EmbeddingException {
        if (provider == null) throw new EmbeddingException("an OpenAI-compatible embedder needs a provider");
        return new OpenAiEmbedder(provider, model);
    }
}
