package dev.clawgate.core.provider;

import dev.clawgate.core.config.ProviderSettings;

/**
 * Makes providers of one {@code kind}; found with {@link java.util.ServiceLoader}
 * (META-INF/services/dev.clawgate.core.provider.ProviderFactory).
 */
public interface ProviderFactory {
    /** The {@code providers.<name>.kind} this factory serves, e.g. {@code openai}. */
    String kind();

    Provider create(ProviderSettings settings);
}
