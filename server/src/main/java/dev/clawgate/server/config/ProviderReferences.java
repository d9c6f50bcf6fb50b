package dev.clawgate.server.config;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.RouteSettings;
import java.util.Map;

/** Checks that every provider name the config uses ({@code agent.provider}, fallback, routes) has a table. */
final class ProviderReferences {
    private ProviderReferences() {}

    static void check(ClawgateConfig config, String file) {
        Map<String, ?> providers = config.providers();
        String chosen = config.agent().provider();
        if (chosen == null && providers.size() > 1) {
            throw new ConfigException("'agent.provider' in " + file
                    + " is not set and several providers are configured; set it to one of: "
                    + String.join(", ", providers.keySet()));
        }
        requireKnown(chosen, "agent.provider", providers, file);
        for (int i = 0; i < config.agent().fallback().size(); i++) {
            requireKnown(config.agent().fallback().get(i), "agent.fallback[" + i + "]", providers, file);
        }
        for (int i = 0; i < config.routes().size(); i++) {
            RouteSettings route = config.routes().get(i);
            requireKnown(route.provider(), "routes[" + i + "].provider", providers, file);
        }
    }

    private static void requireKnown(String name, String keyPath, Map<String, ?> providers, String file) {
        if (name == null || providers.containsKey(name)) return;
        String prefix = "'" + keyPath + "' in " + file + " names provider '" + name + "', but there is no [providers."
                + name + "]; ";
        if (providers.isEmpty()) throw new ConfigException(prefix + "add that table");
        String nearest = null;
        int best = Integer.MAX_VALUE;
        for (String known : providers.keySet()) {
            int d = NearestKey.closeness(name, known);
            if (d < best) {
                best = d;
                nearest = known;
            }
        }
        throw new ConfigException(prefix
                + (nearest != null
                        ? "did you mean '" + nearest + "'?"
                        : "configured providers: " + String.join(", ", providers.keySet())));
    }
}
