package dev.clawgate.mcp.internal;

import dev.clawgate.core.config.McpServerSettings;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The stdio transport of an MCP server (SPEC AG-7): one JSON-RPC message per line on the process's stdin and stdout.
 * Written here rather than taken from the SDK so that the process gets only PATH, HOME and its configured env (never
 * the gateway's own variables, its keys among them), its stderr goes to the log at DEBUG, scrubbed, its whole process
 * tree is ended on close, and its exit is reported the moment it happens.
 */
final class StdioProcessTransport implements McpClientTransport {
    private static final Logger log = LoggerFactory.getLogger(StdioProcessTransport.class);
    /** Taken from the gateway's environment unless the server's env sets them, as for the CLI provider (SP-4). */
    private static final List<String> INHERITED = List.of("PATH", "HOME");

    private final McpServerSettings settings;
    private final McpJsonMapper json;
    private final SecretScrub scrub;
    private final IntConsumer onExit;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final CompletableFuture<Process> started = new CompletableFuture<>();
    private volatile Process process;
    private volatile boolean closing;

    /** @param onExit told the exit code when the process ends on its own (not when this transport closes it) */
    StdioProcessTransport(McpServerSettings settings, McpJsonMapper json, SecretScrub scrub, IntConsumer onExit) {
        this.settings = settings;
        this.json = json;
        this.scrub = scrub;
        this.onExit = onExit;
    }

    static Map<String, String> environment(McpServerSettings settings, Map<String, String> gateway) {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        for (String name : INHERITED) {
            String value = gateway.get(name);
            if (value != null) env.put(name, value);
        }
        env.putAll(settings.env());
        return env;
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        // started on subscription, on the subscriber's thread: the client sends initialize right after subscribing
        return Mono.fromRunnable(() -> start(handler));
    }

    private void start(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        List<String> command = new ArrayList<>();
        command.add(settings.command());
        command.addAll(settings.args());
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(environment(settings, System.getenv()));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            IllegalStateException failed =
                    new IllegalStateException("cannot run " + settings.command() + ": " + e.getMessage(), e);
            started.completeExceptionally(failed);
            throw failed;
        }
        process = p;
        started.complete(p);
        if (closing) {
            // closed while it started: never leave a server running that nobody talks to
            stop();
            return;
        }
        String name = settings.name();
        Thread.ofVirtual().name("mcp-" + name + "-out").start(() -> readMessages(p, handler));
        Thread.ofVirtual().name("mcp-" + name + "-err").start(() -> readErrors(p));
        p.onExit().thenAccept(done -> {
            if (!closing) onExit.accept(done.exitValue());
        });
    }

    private void readMessages(Process p, Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) continue;
                JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(json, line);
                } catch (IOException | RuntimeException e) {
                    // a server that prints something else on stdout: skipped, the protocol goes on
                    log.debug(
                            "mcp {}: not a JSON-RPC message on stdout ({})",
                            settings.name(),
                            e.getClass().getSimpleName());
                    continue;
                }
                handler.apply(Mono.just(message))
                        .subscribe(
                                null,
                                e -> log.debug("mcp {}: handling a message failed: {}", settings.name(), e.toString()));
            }
        } catch (IOException e) {
            if (!closing) log.debug("mcp {}: stdout closed: {}", settings.name(), e.toString());
        }
    }

    private void readErrors(Process p) {
        try (BufferedReader err =
                new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = err.readLine()) != null) {
                // SPEC OP-6: a server's stderr may quote its credentials; never shown to a user
                log.debug("mcp {} stderr: {}", settings.name(), scrub.apply(line));
            }
        } catch (IOException e) {
            if (!closing) log.debug("mcp {}: stderr closed: {}", settings.name(), e.toString());
        }
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        return Mono.fromRunnable(() -> write(message));
    }

    private void write(JSONRPCMessage message) {
        Process p;
        try {
            p = started.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the MCP server " + settings.name() + " did not start", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the MCP server " + settings.name() + " starts", e);
        }
        if (closing || !p.isAlive()) {
            throw new IllegalStateException("the MCP server " + settings.name() + " is not running");
        }
        try {
            // a message is one line: JSON escapes every newline inside strings
            byte[] line = (json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
            writeLock.lock();
            try {
                OutputStream out = p.getOutputStream();
                out.write(line);
                out.flush();
            } finally {
                writeLock.unlock();
            }
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot write to the MCP server " + settings.name() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.<Void>fromRunnable(this::stop).subscribeOn(Schedulers.boundedElastic());
    }

    @Override
    public void close() {
        stop();
    }

    /** Closes stdin, then ends the process and every process it started. */
    private void stop() {
        closing = true;
        Process p = process;
        if (p == null) return;
        List<ProcessHandle> tree = p.descendants().toList();
        try {
            p.getOutputStream().close();
        } catch (IOException e) {
            log.debug("mcp {}: closing stdin: {}", settings.name(), e.toString());
        }
        p.destroy();
        tree.forEach(ProcessHandle::destroy);
        try {
            if (!p.waitFor(2, TimeUnit.SECONDS)) p.destroyForcibly();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return json.convertValue(data, type);
    }
}
