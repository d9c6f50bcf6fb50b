package dev.clawgate.core.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What only a restart can change (SPEC RT-3): which keys of a reloaded config differ from the running one there, and
 * the reloaded config with the running values kept for them.
 */
final class RestartOnlySettings {
    private RestartOnlySettings() {}

    /** See {@link ClawgateConfig#restartOnlyChanges}. */
    static List<String> changes(ClawgateConfig config, ClawgateConfig running) {
        GatewaySettings gateway = config.gateway();
        Map<String, ChannelSettings> channels = config.channels();
        MemorySettings memory = config.memory();
        McpSettings mcp = config.mcp();
        List<String> changed = new java.util.ArrayList<>();
        if (!gateway.dataDir().equals(running.gateway().dataDir())) changed.add("gateway.data_dir");
        if (!gateway.bind().equals(running.gateway().bind())) changed.add("gateway.bind");
        if (!java.util.Objects.equals(gateway.authToken(), running.gateway().authToken()))
            changed.add("gateway.auth_token");
        // SPEC OP-10: the HTTP server is built with its bounds at start
        RequestBounds b = gateway.bounds();
        RequestBounds was = running.gateway().bounds();
        if (b.maxBodyBytes() != was.maxBodyBytes()) changed.add("gateway.max_body_bytes");
        if (b.maxConnections() != was.maxConnections()) changed.add("gateway.max_connections");
        if (!b.readTimeout().equals(was.readTimeout())) changed.add("gateway.read_timeout");
        if (!b.writeTimeout().equals(was.writeTimeout())) changed.add("gateway.write_timeout");
        if (!channels.keySet().equals(running.channels().keySet())) changed.add("channels");
        // the consolidation queue is sized once, at start (SPEC ME-6)
        if (memory.consolidationQueue() != running.memory().consolidationQueue())
            changed.add("memory.consolidation_queue");
        // SPEC ME-5: the embedding model is loaded once, at start
        if (!memory.embedding().embedder().equals(running.memory().embedding().embedder()))
            changed.add("memory.embedder");
        // SPEC AG-7: the MCP servers are started with the gateway
        if (!mcp.equals(running.mcp())) changed.add("mcp");
        channels.forEach((name, next) -> {
            ChannelSettings old = running.channels().get(name);
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

    /** See {@link ClawgateConfig#withRestartOnlyFrom}. */
    static ClawgateConfig keep(ClawgateConfig config, ClawgateConfig running) {
        GatewaySettings gateway = config.gateway();
        Map<String, ChannelSettings> channels = config.channels();
        MemorySettings memory = config.memory();
        GatewaySettings g = new GatewaySettings(
                running.gateway().dataDir(),
                running.gateway().bind(),
                running.gateway().authToken(),
                gateway.owner(),
                running.gateway().bounds());
        Map<String, ChannelSettings> kept = new LinkedHashMap<>();
        running.channels().forEach((name, old) -> {
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
        MemorySettings m = memory.withConsolidationQueue(running.memory().consolidationQueue())
                .withEmbedding(memory.embedding()
                        .withEmbedder(running.memory().embedding().embedder()));
        return new ConfigEdit(config)
                .gateway(g)
                .channels(kept)
                .memory(m)
                .mcp(running.mcp())
                .build();
    }
}
