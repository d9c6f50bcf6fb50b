package dev.clawgate.core.config;

import java.util.List;
import java.util.Map;

/**
 * The whole configuration, as the server loads it from TOML. Every part has SPEC defaults, so
 * {@link #defaults()} is a working gateway with no provider.
 */
public record ClawgateConfig(GatewaySettings gateway, AgentSettings agent, Map<String, ProviderSettings> providers,
                             List<RouteSettings> routes, HistorySettings history, ToolSettings tools,
                             DispatchSettings dispatch) {
    public ClawgateConfig {
        providers = providers == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(providers));
        routes = routes == null ? List.of() : List.copyOf(routes);
    }

    public static ClawgateConfig defaults() {
        return new ClawgateConfig(GatewaySettings.defaults(), AgentSettings.defaults(), Map.of(), List.of(),
                HistorySettings.defaults(), ToolSettings.defaults(), DispatchSettings.defaults());
    }
}
