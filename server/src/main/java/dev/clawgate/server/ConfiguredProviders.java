package dev.clawgate.server;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.internal.turn.ProviderDirectory;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The providers of one config, made by the {@link ProviderFactory} of each one's kind (found with ServiceLoader).
 * Immutable: a config change builds a new one (SPEC RT-3).
 */
public final class ConfiguredProviders implements ProviderDirectory {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ConfiguredProviders.class);
    private static final List<String> HOSTED = List.of(
            "api.openai.com",
            "openrouter.ai",
            "api.anthropic.com",
            "generativelanguage.googleapis.com",
            "api.groq.com",
            "api.mistral.ai",
            "api.deepseek.com");
    private final Map<String, Provider> providers = new LinkedHashMap<>();
    private final Map<String, ProviderSettings> settings = new LinkedHashMap<>();

    public ConfiguredProviders(Map<String, ProviderSettings> configured) {
        Map<String, ProviderFactory> factories = new LinkedHashMap<>();
        for (ProviderFactory f : ServiceLoader.load(ProviderFactory.class)) factories.put(f.kind(), f);
        for (ProviderSettings s : configured.values()) {
            if (s.unconfigured() != null) {
                log.warn("provider '{}' is not configured: {}", s.name(), s.unconfigured());
                continue;
            }
            if (needsKeyButHasNone(s)) {
                log.warn(
                        "provider '{}' is not configured: it has no api_key (is its environment variable set?)",
                        s.name());
                continue;
            }
            ProviderFactory f = factories.get(s.kind());
            if (f == null) {
                throw new IllegalArgumentException("providers." + s.name() + ".kind = '" + s.kind()
                        + "' is not a known provider kind (known: " + String.join(", ", factories.keySet()) + ")");
            }
            providers.put(s.name(), f.create(s));
            settings.put(s.name(), s);
        }
    }

    /**
     * A hosted API without a key cannot answer; a local server (Ollama, llama.cpp, vLLM) needs none. (An unset
     * {@code ${VAR}} in api_key leaves any provider unconfigured: {@link ProviderSettings#unconfigured}.)
     */
    static boolean needsKeyButHasNone(ProviderSettings s) {
        // a CLI provider runs a local program that holds its own credentials
        if ("cli".equals(s.kind())) return false;
        if (s.apiKey() != null && !s.apiKey().isBlank()) return false;
        String url = s.baseUrl() == null ? "" : s.baseUrl().toLowerCase(java.util.Locale.ROOT);
        return url.isEmpty() || HOSTED.stream().anyMatch(url::contains);
    }

    /** Test wiring: providers given directly. */
    public ConfiguredProviders(Map<String, ProviderSettings> settings, Map<String, Provider> providers) {
        this.settings.putAll(settings);
        this.providers.putAll(providers);
    }

    /**
     * Releases what the providers hold: HTTP clients, and the process trees a CLI provider runs. Only at shutdown: a
     * reload leaves the old providers to the runs still using them.
     */
    public void close() {
        for (Provider p : providers.values()) {
            if (!(p instanceof AutoCloseable c)) continue;
            try {
                c.close();
            } catch (Exception e) {
                log.warn("closing provider {} failed: {}", p.name(), e.toString());
            }
        }
    }

    @Override
    public Optional<Provider> find(String name) {
        return Optional.ofNullable(providers.get(name));
    }

    @Override
    public Optional<ProviderSettings> settings(String name) {
        return Optional.ofNullable(settings.get(name));
    }

    @Override
    public List<String> names() {
        return new ArrayList<>(providers.keySet());
    }
}
