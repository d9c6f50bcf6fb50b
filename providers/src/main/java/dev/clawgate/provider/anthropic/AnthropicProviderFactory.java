package dev.clawgate.provider.anthropic;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderFactory;

/** Makes {@link AnthropicProvider}s for {@code kind = "anthropic"} (found through ServiceLoader). */
public final class AnthropicProviderFactory implements ProviderFactory {
    public static final String KIND = "anthropic";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Provider create(ProviderSettings settings) {
        return new AnthropicProvider(settings);
    }
}
