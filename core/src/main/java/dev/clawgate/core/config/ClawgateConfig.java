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
        return new ClawgateConfig(
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
                newOutbox,
                multimodal,
                memory,
                responsePrefix,
                cron,
                mcp,
                inspector);
    }

    /** The same config with {@code [multimodal]} replaced. */
    public ClawgateConfig withMultimodal(MultimodalSettings newMultimodal) {
        return new ClawgateConfig(
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
                newMultimodal,
                memory,
                responsePrefix,
                cron,
                mcp,
                inspector);
    }

    /** The same config with {@code [memory]} replaced. */
    public ClawgateConfig withMemory(MemorySettings newMemory) {
        return new ClawgateConfig(
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
                newMemory,
                responsePrefix,
                cron,
                mcp,
                inspector);
    }

    /** The same config with {@code messages.response_prefix} replaced. */
    public ClawgateConfig withResponsePrefix(String prefix) {
        return new ClawgateConfig(
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
                prefix,
                cron,
                mcp,
                inspector);
    }

    /** The same config with {@code [cron]} replaced. */
    public ClawgateConfig withCron(CronSettings newCron) {
        return new ClawgateConfig(
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
                newCron,
                mcp,
                inspector);
    }

    /** The same config with {@code [mcp]} replaced. */
    public ClawgateConfig withMcp(McpSettings newMcp) {
        return new ClawgateConfig(
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
                newMcp,
                inspector);
    }

    /** The same config with {@code [gateway]} replaced. */
    public ClawgateConfig withGateway(GatewaySettings newGateway) {
        return new ClawgateConfig(
                newGateway,
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
                inspector);
    }

    /** The same config with the inbound settings ({@code [messages.*]}, {@code messages.max_chars}) replaced. */
    public ClawgateConfig withInbound(InboundSettings newInbound) {
        return new ClawgateConfig(
                gateway,
                agent,
                providers,
                routes,
                history,
                tools,
                dispatch,
                session,
                newInbound,
                queue,
                channels,
                outbox,
                multimodal,
                memory,
                responsePrefix,
                cron,
                mcp,
                inspector);
    }

    /** The same config with {@code [agent]} replaced. */
    public ClawgateConfig withAgent(AgentSettings newAgent) {
        return new ClawgateConfig(
                gateway,
                newAgent,
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
                inspector);
    }

    /**
     * The keys whose values differ from {@code running} but take effect only at start (SPEC RT-3):
     * {@code gateway.data_dir}, {@code gateway.bind}, {@code gateway.auth_token}, the HTTP bounds (SPEC OP-10), the set
     * of channels, and each channel's own options ({@code channels.telegram.bot_token}, ...) that its listener read
     * when it started. Values are never named, only keys (they may be secrets).
     */
    public List<String> restartOnlyChanges(ClawgateConfig running) {
        List<String> changed = new java.util.ArrayList<>();
        if (!gateway.dataDir().equals(running.gateway.dataDir())) changed.add("gateway.data_dir");
        if (!gateway.bind().equals(running.gateway.bind())) changed.add("gateway.bind");
        if (!java.util.Objects.equals(gateway.authToken(), running.gateway.authToken()))
            changed.add("gateway.auth_token");
        // SPEC OP-10: the HTTP server is built with its bounds at start
        RequestBounds b = gateway.bounds();
        RequestBounds was = running.gateway.bounds();
        if (b.maxBodyBytes() != was.maxBodyBytes()) changed.add("gateway.max_body_bytes");
        if (b.maxConnections() != was.maxConnections()) changed.add("gateway.max_connections");
        if (!b.readTimeout().equals(was.readTimeout())) changed.add("gateway.read_timeout");
        if (!b.writeTimeout().equals(was.writeTimeout())) changed.add("gateway.write_timeout");
        if (!channels.keySet().equals(running.channels.keySet())) changed.add("channels");
        // the consolidation queue is sized once, at start (SPEC ME-6)
        if (memory.consolidationQueue() != running.memory.consolidationQueue())
            changed.add("memory.consolidation_queue");
        // SPEC AG-7: the MCP servers are started with the gateway
        if (!mcp.equals(running.mcp)) changed.add("mcp");
        channels.forEach((name, next) -> {
            ChannelSettings old = running.channels.get(name);
            if (old == null) return;
            java.util.Set<String> keys = new java.util.TreeSet<>(next.options().keySet());
            keys.addAll(old.options().keySet());
            for (String k : keys) {
                if (!java.util.Objects.equals(
                        next.options().get(k), old.options().get(k))) changed.add("channels." + name + "." + k);
            }
            if (!next.accountOptions().equals(old.accountOptions())) changed.add("channels." + name + ".accounts");
        });
        return List.copyOf(changed);
    }

    /**
     * This config with what only a restart can change taken from {@code running} (see {@link #restartOnlyChanges});
     * every other setting is this config's. A channel this config adds is left out and one it drops is kept, as the
     * running gateway has exactly those listeners.
     */
    public ClawgateConfig withRestartOnlyFrom(ClawgateConfig running) {
        GatewaySettings g = new GatewaySettings(
                running.gateway.dataDir(),
                running.gateway.bind(),
                running.gateway.authToken(),
                gateway.owner(),
                running.gateway.bounds());
        Map<String, ChannelSettings> kept = new LinkedHashMap<>();
        running.channels.forEach((name, old) -> {
            ChannelSettings next = channels.get(name);
            kept.put(
                    name,
                    next == null
                            ? old
                            : new ChannelSettings(
                                    name,
                                    next.access(),
                                    next.accounts(),
                                    old.options(),
                                    old.accountOptions(),
                                    next.output()));
        });
        MemorySettings m = memory.withConsolidationQueue(running.memory.consolidationQueue());
        return new ClawgateConfig(
                g,
                agent,
                providers,
                routes,
                history,
                tools,
                dispatch,
                session,
                inbound,
                queue,
                kept,
                outbox,
                multimodal,
                m,
                responsePrefix,
                cron,
                running.mcp,
                inspector);
    }

    /** The same config with {@code [channels.<name>]} of {@code channel.name()} replaced. */
    public ClawgateConfig withChannel(ChannelSettings channel) {
        Map<String, ChannelSettings> copy = new LinkedHashMap<>(channels);
        copy.put(channel.name(), channel);
        return new ClawgateConfig(
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
                copy,
                outbox,
                multimodal,
                memory,
                responsePrefix,
                cron,
                mcp,
                inspector);
    }

    /** The same config with {@code [inspector]} replaced (SPEC OP-8). */
    public ClawgateConfig withInspector(InspectorSettings newInspector) {
        return new ClawgateConfig(
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
                newInspector);
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
