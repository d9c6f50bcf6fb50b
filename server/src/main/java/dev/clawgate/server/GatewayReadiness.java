package dev.clawgate.server;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.internal.channel.ChannelSupervisor;
import dev.clawgate.core.store.Store;
import dev.clawgate.mcp.McpServerStatus;
import dev.clawgate.server.cluster.ClusterNode;
import dev.clawgate.server.http.HttpServer;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What {@code /readyz} says (SPEC OP-3): the store and every channel must be up; MCP servers and providers shown. */
final class GatewayReadiness {
    private GatewayReadiness() {}

    static HttpServer.Readiness of(
            Store store,
            Collection<Channel> channels,
            ChannelSupervisor supervisor,
            ClusterNode cluster,
            List<McpServerStatus> mcpServers,
            ConfiguredProviders providers) {
        Map<String, String> parts = new LinkedHashMap<>();
        boolean ready = true;
        boolean storeOk = store.healthy();
        parts.put("store", storeOk ? "ok" : "unavailable");
        ready &= storeOk;
        for (Channel ch : channels) {
            ChannelHealth h = supervisor == null ? ch.health() : supervisor.health(ch.name());
            // SPEC OP-2: a pull channel listens on one node; the others stand by, healthy
            boolean standby =
                    cluster != null && cluster.standby(ch.name(), supervisor != null && supervisor.running(ch.name()));
            parts.put("channel." + ch.name(), standby ? "standby" : h.healthy() ? "ok" : h.detail());
            ready &= standby || h.healthy();
        }
        if (cluster != null) parts.putAll(cluster.readiness());
        // SPEC AG-7: shown, not required: a turn runs without a server's tools while it restarts
        for (McpServerStatus m : mcpServers) {
            parts.put("mcp." + m.name(), m.state().name().toLowerCase(java.util.Locale.ROOT));
        }
        parts.put("providers", providers.names().isEmpty() ? "none configured" : String.join(",", providers.names()));
        return new HttpServer.Readiness(ready, parts);
    }
}
