package dev.clawgate.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.config.McpServerSettings;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolResult;
import dev.clawgate.mcp.McpServerState;
import dev.clawgate.mcp.McpServerStatus;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * One configured MCP server over its life (SPEC AG-7): started, asked for its tools (and again on
 * {@code notifications/tools/list_changed}), pinged, and when it dies or stops answering, its tools hidden and the
 * server started again after a backoff that doubles up to a ceiling.
 */
public final class ServerConnection implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ServerConnection.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final McpJsonMapper MCP_JSON = new JacksonMcpJsonMapper(JSON);

    /** How soon a server is started again and how often it is pinged; tests shorten them. */
    public record Timing(Duration firstBackoff, Duration maxBackoff, Duration startTimeout, Duration pingEvery) {
        public static Timing defaults() {
            return new Timing(
                    Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofSeconds(30), Duration.ofSeconds(15));
        }
    }

    private record Live(int generation, McpAsyncClient client, CancellingTransport transport, List<RemoteTool> tools) {}

    private final McpServerSettings settings;
    private final Timing timing;
    private final ScheduledExecutorService timer;
    private final SecretScrub scrub;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile Live live;
    private volatile McpServerState state = McpServerState.STARTING;
    private volatile String problem;
    private int generation;
    private int failures;
    private int restarts;
    private boolean closed;
    private boolean restart = true;

    public ServerConnection(McpServerSettings settings, Timing timing, ScheduledExecutorService timer) {
        this.settings = settings;
        this.timing = timing;
        this.timer = timer;
        this.scrub = new SecretScrub(settings.secrets());
    }

    /** Starts the server in the background; its tools appear once it is ready. */
    public void start() {
        // the timer only schedules: a start or a ping that waits on a slow server holds no other server up
        inBackground(this::connect);
        long every = timing.pingEvery().toMillis();
        timer.scheduleWithFixedDelay(() -> inBackground(this::ping), every, every, TimeUnit.MILLISECONDS);
    }

    /** One attempt, now, on this thread, never started again: what {@code doctor} sees. */
    public McpServerStatus probe() {
        lock.lock();
        try {
            restart = false;
        } finally {
            lock.unlock();
        }
        connect();
        return status();
    }

    /** The tools of a ready server that its allowlist lets through; none while it is not ready. */
    public List<Tool> tools() {
        Live l = live;
        return l == null || state != McpServerState.READY ? List.of() : List.copyOf(l.tools());
    }

    public McpServerStatus status() {
        Live l = live;
        List<String> names = l == null || state != McpServerState.READY
                ? List.of()
                : l.tools().stream().map(RemoteTool::name).toList();
        return new McpServerStatus(settings.name(), settings.where(), state, names, problem, restarts);
    }

    private void connect() {
        int gen;
        lock.lock();
        try {
            if (closed) return;
            gen = ++generation;
            state = McpServerState.STARTING;
        } finally {
            lock.unlock();
        }
        McpAsyncClient client = null;
        try {
            McpClientTransport wire = settings.stdio()
                    ? new StdioProcessTransport(
                            settings, MCP_JSON, scrub, code -> down(gen, "exited with code " + code))
                    : HttpTransports.create(settings, MCP_JSON);
            CancellingTransport transport = new CancellingTransport(wire);
            client = McpClient.async(transport)
                    // the gateway's own timeout (settings.timeout) answers first, with a message for the model
                    .requestTimeout(settings.timeout().plusSeconds(5))
                    .initializationTimeout(timing.startTimeout())
                    .clientInfo(new McpSchema.Implementation("clawgate", "0.1.0"))
                    .toolsChangeConsumer(tools -> Mono.fromRunnable(() -> toolsChanged(gen, tools)))
                    .build();
            client.initialize().block(timing.startTimeout());
            List<RemoteTool> tools = adapt(listAll(client));
            lock.lock();
            try {
                if (closed || gen != generation || state != McpServerState.STARTING) {
                    client.close();
                    return;
                }
                live = new Live(gen, client, transport, tools);
                state = McpServerState.READY;
                problem = null;
                failures = 0;
            } finally {
                lock.unlock();
            }
            log.info("mcp server {} ({}) ready: {} tools", settings.name(), settings.where(), tools.size());
        } catch (RuntimeException e) {
            if (client != null) closeQuietly(client);
            down(gen, "did not start: " + describe(e));
        }
    }

    private void inBackground(Runnable work) {
        Thread.ofVirtual().name("mcp-" + settings.name()).start(work);
    }

    private List<McpSchema.Tool> listAll(McpAsyncClient client) {
        List<McpSchema.Tool> all = new ArrayList<>();
        String cursor = null;
        do {
            McpSchema.ListToolsResult page = client.listTools(cursor).block(timing.startTimeout());
            if (page == null) break;
            all.addAll(page.tools());
            cursor = page.nextCursor();
        } while (cursor != null && !cursor.isEmpty());
        return all;
    }

    private List<RemoteTool> adapt(List<McpSchema.Tool> listed) {
        List<RemoteTool> out = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (McpSchema.Tool t : listed) {
            if (!settings.allows(t.name())) continue;
            String name = ToolNames.exposed(settings.name(), t.name());
            if (!seen.add(name)) {
                log.warn("mcp server {}: tool '{}' is left out: its name is taken by another", settings.name(), name);
                continue;
            }
            ObjectNode schema = t.inputSchema() == null
                    ? JSON.createObjectNode().put("type", "object")
                    : JSON.valueToTree(t.inputSchema());
            String about = t.description() != null ? t.description() : t.title() != null ? t.title() : t.name();
            out.add(new RemoteTool(this, name, t.name(), scrub.apply(about), schema));
        }
        return List.copyOf(out);
    }

    private void toolsChanged(int gen, List<McpSchema.Tool> listed) {
        List<RemoteTool> tools = adapt(listed);
        lock.lock();
        try {
            Live l = live;
            if (l == null || l.generation() != gen) return;
            live = new Live(gen, l.client(), l.transport(), tools);
        } finally {
            lock.unlock();
        }
        log.info("mcp server {}: tool list changed: {} tools", settings.name(), tools.size());
    }

    private void ping() {
        Live l = live;
        if (l == null || state != McpServerState.READY) return;
        try {
            l.client().ping().block(timing.startTimeout());
        } catch (RuntimeException e) {
            down(l.generation(), "stopped answering: " + describe(e));
        }
    }

    /** The server of generation {@code gen} is gone: hide its tools, close it and start it again later. */
    void down(int gen, String why) {
        Live old;
        Duration delay;
        lock.lock();
        try {
            if (closed || gen != generation || state == McpServerState.RESTARTING || state == McpServerState.STOPPED) {
                return;
            }
            old = live;
            live = null;
            // a probe (doctor) is one attempt: it is not started again
            state = restart ? McpServerState.RESTARTING : McpServerState.STOPPED;
            problem = scrub.apply(why);
            if (!restart) {
                delay = null;
            } else {
                long factor = 1L << Math.min(failures++, 16);
                delay = timing.firstBackoff().multipliedBy(factor);
                if (delay.compareTo(timing.maxBackoff()) > 0) delay = timing.maxBackoff();
                restarts++;
                timer.schedule(() -> inBackground(this::connect), delay.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
        if (old != null) closeQuietly(old.client());
        if (delay != null) {
            log.warn(
                    "mcp server {} {}; its tools are hidden, starting it again in {} ms",
                    settings.name(),
                    problem,
                    delay.toMillis());
        }
    }

    ToolResult call(RemoteTool tool, JsonNode arguments, CancelToken cancel) {
        Live l = live;
        if (l == null || state != McpServerState.READY) {
            return ToolResult.error("the MCP server '" + settings.name() + "' is not running now ("
                    + (problem == null ? "starting" : problem) + "); try again later");
        }
        Map<String, Object> args = arguments != null && arguments.isObject()
                ? JSON.convertValue(
                        arguments, JSON.getTypeFactory().constructMapType(Map.class, String.class, Object.class))
                : Map.of();
        McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(tool.remoteName(), args);
        CompletableFuture<McpSchema.CallToolResult> call =
                l.client().callTool(request).toFuture();
        AutoCloseable onCancel = cancel.onCancel(() -> {
            // the server is told first: the waiting thread forgets the request id once the future is cancelled
            l.transport().cancel(request, "the run was stopped");
            call.cancel(true);
        });
        try {
            return ResultText.of(call.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS), scrub);
        } catch (TimeoutException e) {
            l.transport()
                    .cancel(request, "timed out after " + settings.timeout().toSeconds() + " s");
            call.cancel(true);
            return ToolResult.error(
                    tool.name() + " did not answer within " + settings.timeout().toSeconds() + " s (mcp.servers."
                            + settings.name() + ".timeout); the call was cancelled");
        } catch (CancellationException e) {
            cancel.throwIfCancelled();
            return ToolResult.error("the call was cancelled");
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new CancelledException("interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof McpError) {
                // the server answered with a JSON-RPC error: it is alive, the model may try otherwise
                return ToolResult.error(scrub.apply(describe(cause)));
            }
            down(l.generation(), "failed during a call: " + describe(cause));
            return ToolResult.error("the MCP server '" + settings.name() + "' failed (" + scrub.apply(describe(cause))
                    + "); it is being started again");
        } finally {
            l.transport().answered(request);
            closeQuietly(onCancel);
        }
    }

    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String msg = root.getMessage() == null ? "" : ": " + root.getMessage().replaceAll("\\s+", " ");
        if (msg.length() > 200) msg = msg.substring(0, 200) + "…";
        return root.getClass().getSimpleName() + msg;
    }

    private void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.debug("mcp server {}: closing: {}", settings.name(), e.toString());
        }
    }

    private void closeQuietly(McpAsyncClient client) {
        try {
            client.closeGracefully().block(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            log.debug("mcp server {}: closing the client: {}", settings.name(), e.toString());
            client.close();
        }
    }

    @Override
    public void close() {
        Live old;
        lock.lock();
        try {
            closed = true;
            old = live;
            live = null;
            state = McpServerState.STOPPED;
        } finally {
            lock.unlock();
        }
        if (old != null) closeQuietly(old.client());
    }
}
