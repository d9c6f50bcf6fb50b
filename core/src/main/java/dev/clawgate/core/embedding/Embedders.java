package dev.clawgate.core.embedding;

import dev.clawgate.core.config.EmbeddingSettings;
import dev.clawgate.core.config.ProviderSettings;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Picks the embedder {@code memory.embedder} names (SPEC ME-5): {@code local} (the default) is the model of the
 * {@code embeddings} module, {@code none} turns the vector half off, and any other value names a configured provider
 * whose kind has an {@link EmbedderFactory}. When none can be had the gateway recalls by keyword alone and says why.
 */
public final class Embedders {
    private Embedders() {}

    /**
     * The embedder chosen, or none, and a line that says which recall mode is active and why (for the log and
     * {@code doctor}).
     *
     * @param fault true when the configured embedder was asked for but could not be made
     */
    public record Selection(Optional<Embedder> embedder, String mode, boolean fault) {
        public static Selection keywordOnly(String why, boolean fault) {
            return new Selection(Optional.empty(), "keyword only: " + why, fault);
        }
    }

    public static Selection select(EmbeddingSettings settings, Map<String, ProviderSettings> providers) {
        return select(settings, providers, ServiceLoader.load(EmbedderFactory.class));
    }

    static Selection select(
            EmbeddingSettings settings, Map<String, ProviderSettings> providers, Iterable<EmbedderFactory> factories) {
        String name = settings.embedder();
        if (EmbeddingSettings.NONE.equals(name)) return Selection.keywordOnly("memory.embedder = \"none\"", false);
        ProviderSettings provider = null;
        String kind = EmbedderFactory.LOCAL;
        if (!EmbedderFactory.LOCAL.equals(name)) {
            provider = providers.get(name);
            if (provider == null)
                return Selection.keywordOnly(
                        "memory.embedder names '" + name + "', which is neither \"local\", \"none\" nor a provider",
                        true);
            if (provider.unconfigured() != null)
                return Selection.keywordOnly(
                        "provider '" + name + "' is not configured: " + provider.unconfigured(), true);
            kind = provider.kind();
        }
        EmbedderFactory factory = null;
        for (EmbedderFactory f : factories) {
            if (f.kind().equals(kind)) {
                factory = f;
                break;
            }
        }
        if (factory == null) {
            return EmbedderFactory.LOCAL.equals(kind)
                    ? Selection.keywordOnly("the embeddings module is not on the class path", false)
                    : Selection.keywordOnly("no embedder serves providers of kind '" + kind + "'", true);
        }
        try {
            Embedder e = factory.create(provider, settings.model());
            String where = provider == null ? "local model " : "provider '" + provider.name() + "', model ";
            return new Selection(
                    Optional.of(e), "hybrid: " + where + e.modelId() + " (" + e.dimensions() + " dimensions)", false);
        } catch (EmbeddingException | RuntimeException e) {
            return Selection.keywordOnly("the " + name + " embedder failed to start: " + e.getMessage(), true);
        }
    }
}
