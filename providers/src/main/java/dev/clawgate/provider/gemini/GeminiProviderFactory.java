package dev.clawgate.provider.gemini;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderFactory;

/** Makes {@link GeminiProvider}s for {@code kind = "gemini"} (found through ServiceLoader). */
public final class GeminiProviderFactory implements ProviderFactory {
    public static final String KIND = "gemini";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Provider create(ProviderSettings settings) {
        return new GeminiProvider(settings);
    }
}
