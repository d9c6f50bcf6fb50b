package dev.clawgate.provider.cli;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderFactory;

/** Makes {@link CliProvider}s for {@code kind = "cli"} (found through ServiceLoader). */
public final class CliProviderFactory implements ProviderFactory {
    public static final String KIND = "cli";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Provider create(ProviderSettings settings) {
        return new CliProvider(settings);
    }
}
