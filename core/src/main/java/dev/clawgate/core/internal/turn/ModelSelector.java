package dev.clawgate.core.internal.turn;

import dev.clawgate.core.config.AgentSettings;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.config.RouteSettings;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.provider.Provider;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Picks provider and model for a turn: the session's {@code /model} choice, then the first matching route (SPEC RT-2:
 * keywords, case-insensitive, whole word), then the agent default; the fallback chain follows (SPEC SP-4).
 */
public final class ModelSelector {
    public static final String NO_PROVIDER = "No model provider is configured: add a [providers.openai] section with "
            + "api_key = \"${OPENAI_API_KEY}\" (or base_url for a local server) to clawgate.toml — `clawgate init` "
            + "writes an example.";

    private ModelSelector() {}

    /** A session override, as {@code /model} stored it: "model" or "provider:model". */
    public record Override(String provider, String model) {}

    public static ModelChoice choose(
            String text,
            Optional<Override> sessionOverride,
            AgentSettings agent,
            List<RouteSettings> routes,
            ProviderDirectory providers) {
        if (providers.names().isEmpty()) return ModelChoice.none(NO_PROVIDER);
        String providerName = agent.provider();
        String model = agent.model();
        String hint = null;
        Optional<RouteSettings> route = matchRoute(text, routes);
        if (route.isPresent()) {
            hint = route.get().hint();
            if (route.get().provider() != null) providerName = route.get().provider();
            if (route.get().model() != null) model = route.get().model();
        }
        if (sessionOverride.isPresent()) {
            if (sessionOverride.get().provider() != null)
                providerName = sessionOverride.get().provider();
            model = sessionOverride.get().model();
        }
        if (providerName == null) providerName = providers.names().get(0);
        Optional<ModelRoute> primary = routeFor(providerName, model, providers);
        if (primary.isEmpty()) {
            return ModelChoice.none(
                    providers.settings(providerName).isPresent()
                            ? "Provider '" + providerName + "' has no model: set agent.model or providers."
                                    + providerName + ".model in clawgate.toml."
                            : "Provider '" + providerName
                                    + "' is not configured (or its api_key variable is unset): configured are "
                                    + String.join(", ", providers.names()) + ".");
        }
        List<ModelRoute> chain = new ArrayList<>(List.of(primary.get()));
        for (String fb : agent.fallback()) {
            if (!fb.equals(providerName)) routeFor(fb, null, providers).ifPresent(chain::add);
        }
        return new ModelChoice(chain, hint, null);
    }

    private static Optional<ModelRoute> routeFor(String providerName, String model, ProviderDirectory providers) {
        Optional<Provider> p = providers.find(providerName);
        Optional<ProviderSettings> s = providers.settings(providerName);
        if (p.isEmpty() || s.isEmpty()) return Optional.empty();
        String m = model != null ? model : s.get().defaultModel();
        if (m == null || m.isBlank()) return Optional.empty();
        boolean nativeTools = s.get().nativeTools() != null
                ? s.get().nativeTools()
                : p.get().capabilities().nativeTools();
        return Optional.of(new ModelRoute(p.get(), m, nativeTools));
    }

    /** SPEC RT-2: the first route with a keyword that occurs as a whole word, ignoring case. */
    public static Optional<RouteSettings> matchRoute(String text, List<RouteSettings> routes) {
        if (text == null || text.isEmpty()) return Optional.empty();
        String lower = text.toLowerCase(Locale.ROOT);
        for (RouteSettings r : routes) {
            for (String k : r.keywords()) {
                if (k.isBlank()) continue;
                Pattern p = Pattern.compile(
                        "(?<![\\p{L}\\p{N}_])" + Pattern.quote(k.toLowerCase(Locale.ROOT)) + "(?![\\p{L}\\p{N}_])");
                if (p.matcher(lower).find()) return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** Reads "provider:model" or "model" as {@code /model} accepts it. */
    public static Override parseOverride(String spec, ProviderDirectory providers) {
        int colon = spec.indexOf(':');
        if (colon > 0 && providers.settings(spec.substring(0, colon)).isPresent()) {
            return new Override(spec.substring(0, colon), spec.substring(colon + 1));
        }
        return new Override(null, spec);
    }
}
