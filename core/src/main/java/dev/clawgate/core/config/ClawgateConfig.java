package dev.clawgate.core.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole configuration, as the server loads it from TOML. Every part has SPEC defaults, so {@link #defaults()} is a
 * working gateway with no provider.
 *
 * @param channels {@code [channels.<name>]} by name; a channel without a table gets {@link #channel(String)}'s defaults
 * @param responsePrefix {@code messages.response_prefix}, the first level of the prefix cascade (SPEC OUT-3); "" when
 *     unset
 * @param cron {@code [cron]}: the scheduled-task tools and their limits (SPEC AG-5)
 * @param mcp {@code [mcp.servers.<name>]}: MCP servers whose tools the agent may use (SPEC AG-7)
 * @param inspector {@code [inspector]}: the turn inspector (SPEC OP-8)
 */
public record ClawgateConfig(
        GatewaySettings gateway,
        AgentSettings agent,
        Map<String, ProviderSettings> providers,
        List<RouteSettings> routes,
        HistorySettings history,
        ToolSettings tools,
        DispatchSettings dispatch,
        SessionSettings session,
        InboundSettings inbound,
        QueueSettings queue,
        Map<String, ChannelSettings> channels,
        OutboxSettings outbox,
        MultimodalSettings multimodal,
        MemorySettings memory,
        String responsePrefix,
        CronSettings cron,
        McpSettings mcp,
        InspectorSettings inspector) {
    public ClawgateConfig {
        inspector = inspector == null ? InspectorSettings.defaults() : inspector;
        mcp = mcp == null ? McpSettings.none() : mcp;
        cron = cron == null ? CronSettings.defaults() : cron;
        outbox = outbox == null ? OutboxSettings.defaults() : outbox;
        multimodal = multimodal == null ? MultimodalSettings.defaults() : multimodal;
        memory = memory == null ? MemorySettings.defaults() : memory;
        responsePrefix = responsePrefix == null ? "" : responsePrefix;
        providers = providers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(providers));
        routes = routes == null ? List.of() : List.copyOf(routes);
        channels = channels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(channels));
    }

    /** Everything but {@code [inspector]}, which gets its defaults. */
    public ClawgateConfig(
            GatewaySettings gateway,
            AgentSettings agent,
            Map<String, ProviderSettings> providers,
            List<RouteSettings> routes,
            HistorySettings history,
            ToolSettings tools,
            DispatchSettings dispatch,
            SessionSettings session,
            InboundSettings inbound,
            QueueSettings queue,
            Map<String, ChannelSettings> channels,
            OutboxSettings outbox,
            MultimodalSettings multimodal,
            MemorySettings memory,
            String responsePrefix,
            CronSettings cron,
            McpSettings mcp) {
        this(
                gateway,
                agent,
                providers,
                routes,
                history,
                tools,
                dispatch,
                session,
                inbound,
                queue,
                channels,
                outbox,
                multimodal,
                memory,
                responsePrefix,
                cron,
                mcp,
                InspectorSettings.defaults());
    }

    /** Everything but {@code [mcp]}, which has no servers. */
    public ClawgateConfig(
            GatewaySettings gateway,
            AgentSettings agent,
            Map<String, ProviderSettings> providers,
            List<RouteSettings> routes,
            HistorySettings history,
            ToolSettings tools,
            DispatchSettings dispatch,
            SessionSettings session,
            InboundSettings inbound,
            QueueSettings queue,
            Map<String, ChannelSettings> channels,
            OutboxSettings outbox,
            MultimodalSettings multimodal,
            MemorySettings memory,
            String responsePrefix,
            CronSettings cron) {
        this(
                gateway,
                agent,
                providers,
                routes,
                history,
                tools,
                dispatch,
                session,
                inbound,
                queue,
                channels,
                outbox,
                multimodal,
                memory,
                responsePrefix,
                cron,
                McpSettings.none());
    }

    /** Everything but {@code [cron]}, which gets its defaults. */
    public ClawgateConfig(
            GatewaySettings gateway,
            AgentSettings agent,
            Map<String, ProviderSettings> providers,
            List<RouteSettings> routes,
            HistorySettings history,
            ToolSettings tools,
            DispatchSettings dispatch,
            SessionSettings session,
            InboundSettings inbound,
            QueueSettings queue,
            Map<String, ChannelSettings> channels,
            OutboxSettings outbox,
            MultimodalSettings multimodal,
            MemorySettings memory,
            String responsePrefix) {
        this(
                gateway,
                agent,
                providers,
                routes,
                history,
                tools,
                dispatch,
                session,
                inbound,
                queue,
                channels,
                outbox,
                multimodal,
                memory,
                responsePrefix,
                CronSettings.defaults());
    }

    /** Everything but the multimodal limits, the memory and the response prefix, which get their defaults. */
    public ClawgateConfig(
            GatewaySettings gateway,
            AgentSettings agent,
            Map<String, ProviderSettings> providers,
            List<RouteSettings> routes,
            HistorySettings history,
            ToolSettings tools,
            DispatchSettings dispatch,
            SessionSettings session,
            InboundSettings inbound,
            QueueSettings queue,
            Map<String, ChannelSettings> channels,
            OutboxSettings outbox) {
        this(
                gateway,
                agent,
                providers,
                routes,
                history,
                tools,
                dispatch,
                session,
                inbound,
                queue,
                channels,
                outbox,
                MultimodalSettings.defaults(),
                MemorySettings.defaults(),
                "");
    }

    /**
     * Everything but the outbox, the multimodal limits, the memory and the response prefix, which get their defaults.
     */
    public ClawgateConfig(
            GatewaySettings gateway,
            AgentSettings agent,
            Map<String, ProviderSettings> providers,
            List<RouteSettings> routes,
            HistorySettings history,
            ToolSettings tools,
            DispatchSettings dispatch,
            SessionSettings session,
            InboundSettings inbound,
            QueueSettings queue,
            Map<String, ChannelSettings> channels) {
        this(
                gateway,
                agent,
                providers,
                routes,
                history,
                tools,
                dispatch,
                session,
                inbound,
                queue,
                channels,
                OutboxSettings.defaults());
    }

    /** The parts the foundation knew, with defaults for the rest. */
    public ClawgateConfig(
            GatewaySettings gateway,
            AgentSettings agent,
            Map<String, ProviderSettings> providers,
            List<RouteSettings> routes,
            HistorySettings history,
            ToolSettings tools,
            DispatchSettings dispatch) {
        this(
                gateway,
                agent,
                providers,
                routes,
                history,
                tools,
                dispatch,
                SessionSettings.defaults(),
                InboundSettings.defaults(),
                QueueSettings.defaults(),
                Map.of());
    }

    /** The same config with {@code [outbox]} replaced. */
    public ClawgateConfig withOutbox(OutboxSettings newOutbox) {
        return new ConfigEdit(this).outbox(newOutbox).build();
    }

    /** The same config with {@code [multimodal]} replaced. */
    public ClawgateConfig withMultimodal(MultimodalSettings newMultimodal) {
        return new ConfigEdit(this).multimodal(newMultimodal).build();
    }

    /** The same config with {@code [memory]} replaced. */
    public ClawgateConfig withMemory(MemorySettings newMemory) {
        return new ConfigEdit(this).memory(newMemory).build();
    }

    /** The same config with {@code messages.response_prefix} replaced. */
    public ClawgateConfig withResponsePrefix(String prefix) {
        return new ConfigEdit(this).responsePrefix(prefix).build();
    }

    /** The same config with {@code [cron]} replaced. */
    public ClawgateConfig withCron(CronSettings newCron) {
        return new ConfigEdit(this).cron(newCron).build();
    }

    /** The same config with {@code [inspector]} replaced (SPEC OP-8). */
    public ClawgateConfig withInspector(InspectorSettings newInspector) {
        return new ConfigEdit(this).inspector(newInspector).build();
    }

    /** The same config with {@code [mcp]} replaced. */
    public ClawgateConfig withMcp(McpSettings newMcp) {
        return new ConfigEdit(this).mcp(newMcp).build();
    }

    /** The same config with {@code [gateway]} replaced. */
    public ClawgateConfig withGateway(GatewaySettings newGateway) {
        return new ConfigEdit(this).gateway(newGateway).build();
    }

    /** The same config with the inbound settings ({@code [messages.*]}, {@code messages.max_chars}) replaced. */
    public ClawgateConfig withInbound(InboundSettings newInbound) {
        return new ConfigEdit(this).inbound(newInbound).build();
    }

    /** The same config with {@code [agent]} replaced. */
    public ClawgateConfig withAgent(AgentSettings newAgent) {
        return new ConfigEdit(this).agent(newAgent).build();
    }

    /**
     * The keys whose values differ from {@code running} but take effect only at start (SPEC RT-3):
     * {@code gateway.data_dir}, {@code gateway.bind}, {@code gateway.auth_token}, the HTTP bounds (SPEC OP-10), the set
     * of channels, and each channel's own options ({@code channels.telegram.bot_token}, ...) that its listener read
     * when it started. Values are never named, only keys (they may be secrets).
     */
    public List<String> restartOnlyChanges(ClawgateConfig running) {
        return RestartOnlySettings.changes(this, running);
    }

    /**
     * This config with what only a restart can change taken from {@code running} (see {@link #restartOnlyChanges});
     * every other setting is this config's. A channel this config adds is left out and one it drops is kept, as the
     * running gateway has exactly those listeners.
     */
    public ClawgateConfig withRestartOnlyFrom(ClawgateConfig running) {
        return RestartOnlySettings.keep(this, running);
    }

    /** The same config with {@code [channels.<name>]} of {@code channel.name()} replaced. */
    public ClawgateConfig withChannel(ChannelSettings channel) {
        Map<String, ChannelSettings> copy = new LinkedHashMap<>(channels);
        copy.put(channel.name(), channel);
        return new ConfigEdit(this).channels(copy).build();
    }

    public static ClawgateConfig defaults() {
        return new ClawgateConfig(
                GatewaySettings.defaults(),
                AgentSettings.defaults(),
                Map.of(),
                List.of(),
                HistorySettings.defaults(),
                ToolSettings.defaults(),
                DispatchSettings.defaults());
    }

    /** A channel's settings: its table, or the SPEC defaults. */
    public ChannelSettings channel(String name) {
        ChannelSettings c = channels.get(name);
        return c != null ? c : new ChannelSettings(name, AccessSettings.defaults(), Map.of(), Map.of());
    }
}
