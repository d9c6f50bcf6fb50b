package dev.clawgate.provider.openai;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderFactory;

/** Makes {@link OpenAiProvider}s for {@code kind = "openai"} (found through ServiceLoader). */
public final class OpenAiProviderFactory implements ProviderFactory {
    public static final String KIND = "openai";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Provider create(ProviderSettings settings) {
        return new OpenAiProvider(settings);
    }
}
