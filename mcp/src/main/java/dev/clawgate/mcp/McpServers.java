package dev.clawgate.mcp;

import dev.clawgate.core.config.McpServerSettings;
import dev.clawgate.core.config.McpSettings;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.mcp.internal.ServerConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The MCP client (SPEC AG-7): one connection per {@code [mcp.servers.<name>]}, each started in the background,
 * restarted with backoff when it dies. {@link #tools()} is what the model may use now: the tools of the servers that
 * are ready, as {@code <server>__<tool>}, filtered by each server's allowlist.
 */
public final class McpServers implements AutoCloseable {
    private final List<ServerConnection> servers;
    private final ScheduledExecutorService timer;

    private McpServers(List<ServerConnection> servers, ScheduledExecutorService timer) {
        this.servers = List.copyOf(servers);
        this.timer = timer;
    }

    /** Starts every configured server in the background; returns at once. */
    public static McpServers start(McpSettings settings) {
        return start(settings, ServerConnection.Timing.defaults());
    }

    public static McpServers start(McpSettings settings, ServerConnection.Timing timing) {
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(
                1, Thread.ofVirtual().name("mcp-", 0).factory());
        List<ServerConnection> all = new ArrayList<>();
        for (McpServerSettings s : settings.servers().values()) all.add(new ServerConnection(s, timing, timer));
        McpServers servers = new McpServers(all, timer);
        all.forEach(ServerConnection::start);
        return servers;
    }

    /**
     * Starts each server once, lists its tools and stops it again, without restarts: what {@code clawgate doctor}
     * reports.
     */
    public static List<McpServerStatus> probe(McpSettings settings) {
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(
                1, Thread.ofVirtual().name("mcp-probe-", 0).factory());
        List<McpServerStatus> out = new ArrayList<>();
        try {
            for (McpServerSettings s : settings.servers().values()) {
                try (ServerConnection c = new ServerConnection(s, ServerConnection.Timing.defaults(), timer)) {
                    out.add(c.probe());
                }
            }
        } finally {
            timer.shutdownNow();
        }
        return out;
    }

    /** The tools of the servers that are ready now, in the order the servers are configured. */
    public List<Tool> tools() {
        List<Tool> out = new ArrayList<>();
        for (ServerConnection s : servers) out.addAll(s.tools());
        return out;
    }

    public List<McpServerStatus> status() {
        return servers.stream().map(ServerConnection::status).toList();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        servers.forEach(ServerConnection::close);
    }
}
