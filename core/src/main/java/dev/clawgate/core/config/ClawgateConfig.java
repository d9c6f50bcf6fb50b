package dev.clawgate.core.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole configuration, as the server loads it from TOML. Every part has SPEC defaults, so
 * {@link #defaults()} is a working gateway with no provider.
 *
 * @param channels       {@code [channels.<name>]} by name; a channel without a table gets {@link #channel(String)}'s defaults
 * @param responsePrefix {@code messages.response_prefix}, the first level of the prefix cascade (SPEC OUT-3); "" when unset
 */
public record ClawgateConfig(GatewaySettings gateway, AgentSettings agent, Map<String, ProviderSettings> providers,
                             List<RouteSettings> routes, HistorySettings history, ToolSettings tools,
                             DispatchSettings dispatch, SessionSettings session, InboundSettings inbound,
                             QueueSettings queue, Map<String, ChannelSettings> channels, OutboxSettings outbox,
                             MultimodalSettings multimodal, MemorySettings memory, String responsePrefix) {
    public ClawgateConfig {
        outbox = outbox == null ? OutboxSettings.defaults() : outbox;
        multimodal = multimodal == null ? MultimodalSettings.defaults() : multimodal;
        memory = memory == null ? MemorySettings.defaults() : memory;
        responsePrefix = responsePrefix == null ? "" : responsePrefix;
        providers = providers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(providers));
        routes = routes == null ? List.of() : List.copyOf(routes);
        channels = channels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(channels));
    }

    /** Everything but the multimodal limits, the memory and the response prefix, which get their defaults. */
    public ClawgateConfig(GatewaySettings gateway, AgentSettings agent, Map<String, ProviderSettings> providers,
                          List<RouteSettings> routes, HistorySettings history, ToolSettings tools, DispatchSettings dispatch,
                          SessionSettings session, InboundSettings inbound, QueueSettings queue, Map<String, ChannelSettings> channels,
                          OutboxSettings outbox) {
        this(gateway, agent, providers, routes, history, tools, dispatch, session, inbound, queue, channels, outbox,
                MultimodalSettings.defaults(), MemorySettings.defaults(), "");
    }

    /** Everything but the outbox, the multimodal limits, the memory and the response prefix, which get their defaults. */
    public ClawgateConfig(GatewaySettings gateway, AgentSettings agent, Map<String, ProviderSettings> providers,
                          List<RouteSettings> routes, HistorySettings history, ToolSettings tools, DispatchSettings dispatch,
                          SessionSettings session, InboundSettings inbound, QueueSettings queue, Map<String, ChannelSettings> channels) {
        this(gateway, agent, providers, routes, history, tools, dispatch, session, inbound, queue, channels, OutboxSettings.defaults());
    }

    /** The parts the foundation knew, with defaults for the rest. */
    public ClawgateConfig(GatewaySettings gateway, AgentSettings agent, Map<String, ProviderSettings> providers,
                          List<RouteSettings> routes, HistorySettings history, ToolSettings tools, DispatchSettings dispatch) {
        this(gateway, agent, providers, routes, history, tools, dispatch, SessionSettings.defaults(), InboundSettings.defaults(),
                QueueSettings.defaults(), Map.of());
    }

    /** The same config with {@code [outbox]} replaced. */
    public ClawgateConfig withOutbox(OutboxSettings newOutbox) {
        return new ClawgateConfig(gateway, agent, providers, routes, history, tools, dispatch, session, inbound, queue, channels, newOutbox,
                multimodal, memory, responsePrefix);
    }

    /** The same config with {@code [multimodal]} replaced. */
    public ClawgateConfig withMultimodal(MultimodalSettings newMultimodal) {
        return new ClawgateConfig(gateway, agent, providers, routes, history, tools, dispatch, session, inbound, queue, channels, outbox,
                newMultimodal, memory, responsePrefix);
    }

    /** The same config with {@code [memory]} replaced. */
    public ClawgateConfig withMemory(MemorySettings newMemory) {
        return new ClawgateConfig(gateway, agent, providers, routes, history, tools, dispatch, session, inbound, queue, channels, outbox,
                multimodal, newMemory, responsePrefix);
    }

    /** The same config with {@code messages.response_prefix} replaced. */
    public ClawgateConfig withResponsePrefix(String prefix) {
        return new ClawgateConfig(gateway, agent, providers, routes, history, tools, dispatch, session, inbound, queue, channels, outbox,
                multimodal, memory, prefix);
    }

    /** The same config with {@code [channels.<name>]} of {@code channel.name()} replaced. */
    public ClawgateConfig withChannel(ChannelSettings channel) {
        Map<String, ChannelSettings> copy = new LinkedHashMap<>(channels);
        copy.put(channel.name(), channel);
        return new ClawgateConfig(gateway, agent, providers, routes, history, tools, dispatch, session, inbound, queue, copy, outbox,
                multimodal, memory, responsePrefix);
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
