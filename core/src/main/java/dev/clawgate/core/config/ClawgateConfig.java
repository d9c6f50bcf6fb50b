package dev.clawgate.core.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole configuration, as the server loads it from TOML. Every part has SPEC defaults, so
 * {@link #defaults()} is a working gateway with no provider.
 *
 * @param channels {@code [channels.<name>]} by name; a channel without a table gets {@link #channel(String)}'s defaults
 */
public record ClawgateConfig(GatewaySettings gateway, AgentSettings agent, Map<String, ProviderSettings> providers,
                             List<RouteSettings> routes, HistorySettings history, ToolSettings tools,
                             DispatchSettings dispatch, SessionSettings session, InboundSettings inbound,
                             QueueSettings queue, Map<String, ChannelSettings> channels) {
    public ClawgateConfig {
        providers = providers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(providers));
        routes = routes == null ? List.of() : List.copyOf(routes);
        channels = channels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(channels));
    }

    /** The parts the foundation knew, with defaults for the rest. */
    public ClawgateConfig(GatewaySettings gateway, AgentSettings agent, Map<String, ProviderSettings> providers,
                          List<RouteSettings> routes, HistorySettings history, ToolSettings tools, DispatchSettings dispatch) {
        this(gateway, agent, providers, routes, history, tools, dispatch, SessionSettings.defaults(), InboundSettings.defaults(),
                QueueSettings.defaults(), Map.of());
    }

    public static ClawgateConfig defaults() {
        return new ClawgateConfig(GatewaySettings.defaults(), AgentSettings.defaults(), Map.of(), List.of(),
                HistorySettings.defaults(), ToolSettings.defaults(), DispatchSettings.defaults());
    }

    /** A channel's settings: its table, or the SPEC defaults. */
    public ChannelSettings channel(String name) {
        ChannelSettings c = channels.get(name);
        return c != null ? c : new ChannelSettings(name, AccessSettings.defaults(), Map.of(), Map.of());
    }
}
