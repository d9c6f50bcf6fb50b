package dev.clawgate.core.internal.turn;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.provider.Provider;
import java.util.List;
import java.util.Optional;

/** The configured providers by name; rebuilt by the server when the config changes (SPEC RT-3). */
public interface ProviderDirectory {
    Optional<Provider> find(String name);

    Optional<ProviderSettings> settings(String name);

    /** Configured names, in config order; a provider whose api_key variable is unset is not listed. */
    List<String> names();
}
