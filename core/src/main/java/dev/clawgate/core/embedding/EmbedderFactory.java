package dev.clawgate.core.embedding;

import dev.clawgate.core.config.ProviderSettings;

/**
 * Makes embedders of one kind; found with {@link java.util.ServiceLoader}
 * (META-INF/services/dev.clawgate.core.embedding.EmbedderFactory), like channels and providers. {@code memory.embedder
 * = "local"} asks the factory of kind {@link #LOCAL}; {@code memory.embedder = "<provider name>"} asks the factory of
 * that provider's {@code kind} (e.g. {@code openai}), with the provider's settings.
 */
public interface EmbedderFactory {
    /** The kind of the local model that ships in the {@code embeddings} module. */
    String LOCAL = "local";

    /** {@link #LOCAL}, or the {@code providers.<name>.kind} this factory serves. */
    String kind();

    /**
     * @param provider the provider {@code memory.embedder} names, or null for {@link #LOCAL}
     * @param model {@code memory.embedding_model}, or null for the factory's default
     */
    Embedder create(ProviderSettings provider, String model) throws EmbeddingException;
}
