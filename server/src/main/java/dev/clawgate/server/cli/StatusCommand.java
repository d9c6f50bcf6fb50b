package dev.clawgate.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.ClawgateConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code clawgate status} (SPEC OP-3, OP-4, CH-0): asks a running gateway over its control API ({@code GET
 * /api/status}) and prints its channels with their health, its queue depths, its outbox and its uptime. The address and
 * token come from the config ({@code gateway.bind}, {@code gateway.auth_token}) unless {@code --url} and
 * {@code --token} say otherwise. Exit 0 when every channel is healthy, 1 when one is not or no gateway answers.
 */
@Command(name = "status", description = "Ask the running gateway how it is: channels, queues, outbox, uptime.")
final class StatusCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    ConfigOption config;

    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "the gateway's address (default: http:// and gateway.bind of the config)")
    String url;

    @Option(
            names = "--token",
            paramLabel = "TOKEN",
            description = "the gateway token (default: gateway.auth_token of the config, else $CLAWGATE_TOKEN)")
    String token;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        String base = url;
        String bearer = token;
        if (base == null || bearer == null) {
            ClawgateConfig cfg = config.load();
            if (base == null) base = "http://" + loopbackFor(cfg.gateway().bind());
            if (bearer == null) bearer = cfg.gateway().authToken();
        }
        if (bearer == null || bearer.isBlank()) bearer = System.getenv("CLAWGATE_TOKEN");
        URI uri = URI.create(base.replaceAll("/+$", "") + "/api/status");
        PrintWriter err = spec.commandLine().getErr();
        HttpResponse<String> r;
        try {
            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(3))
                    .build();
            HttpRequest.Builder req = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
            if (bearer != null && !bearer.isBlank()) req.header("Authorization", "Bearer " + bearer);
            r = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            err.println("clawgate: no gateway answers at " + uri.resolve("/") + " (" + why(e)
                    + "); is 'clawgate run' running with this config? (--url sets another address)");
            return Main.FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Main.FAILURE;
        }
        if (r.statusCode() == 401) {
            err.println("clawgate: the gateway at " + uri.resolve("/")
                    + " refused the token; set gateway.auth_token in the config, or pass --token");
            return Main.FAILURE;
        }
        if (r.statusCode() != 200) {
            err.println("clawgate: the gateway at " + uri.resolve("/") + " answered " + r.statusCode()
                    + " to /api/status; is it a Clawgate gateway of this version?");
            return Main.FAILURE;
        }
        try {
            JsonNode s = JSON.readTree(r.body());
            print(spec.commandLine().getOut(), uri.resolve("/").toString(), s);
            return s.path("healthy").asBoolean() ? Main.OK : Main.FAILURE;
        } catch (IOException e) {
            err.println("clawgate: the answer of " + uri + " is not JSON: " + e.getMessage());
            return Main.FAILURE;
        }
    }

    static void print(PrintWriter out, String where, JsonNode s) {
        out.printf(
                "Gateway %s: %s, version %s, up %s%n",
                where,
                s.path("healthy").asBoolean() ? "healthy" : "DEGRADED",
                s.path("version").asText(),
                uptime(s.path("uptime_seconds").asLong()));
        out.println("Channels:");
        for (JsonNode c : s.path("channels")) {
            for (JsonNode a : c.path("accounts")) {
                boolean ok = c.path("healthy").asBoolean() && a.path("healthy").asBoolean();
                String name = c.path("name").asText()
                        + ("default".equals(a.path("id").asText())
                                ? ""
                                : "." + a.path("id").asText());
                String detail = ok
                        ? "ok"
                        : a.path("healthy").asBoolean()
                                ? c.path("detail").asText()
                                : a.path("detail").asText();
                String last = a.path("last_error").isNull()
                        ? c.path("last_error").asText(null)
                        : a.path("last_error").asText();
                out.printf(
                        "  %-20s %-9s %s%s%n",
                        name,
                        ok ? "healthy" : c.path("running").asBoolean() ? "UNHEALTHY" : "STOPPED",
                        detail,
                        last == null || !ok ? "" : " (last error: " + last + ")");
            }
        }
        JsonNode q = s.path("queues");
        out.printf(
                "Queues: bus %d, active runs %d, runs since start %d%n",
                q.path("bus").asInt(),
                q.path("active_runs").asInt(),
                q.path("runs_started").asLong());
        out.println("Outbox: " + counts(s.path("outbox")));
        out.println("Inbox:  " + counts(s.path("inbox")));
        JsonNode latency = s.path("model").path("latency_ms");
        if (latency.isNumber()) out.printf("Model latency: %.0f ms (mean of the last turns)%n", latency.asDouble());
        JsonNode m = s.path("memory");
        if (m.has("recall")) {
            out.println("Memory: " + m.path("recall").asText()
                    + (m.has("model")
                            ? ", " + m.path("embedded").asLong() + " of "
                                    + m.path("entries").asLong() + " embedded"
                            : ""));
            for (JsonNode l : m.path("large_scopes"))
                out.printf(
                        "  %s: %d vectors, %s%n",
                        l.path("scope").asText(),
                        l.path("vectors").asLong(),
                        switch (l.path("search").asText()) {
                            case "index_ready" -> "searched through its HNSW index";
                            case "index_building" -> "HNSW index being built, searched exactly until ready";
                            case "exact_too_large" -> "searched exactly: its index would not fit a third of the heap";
                            default -> "searched exactly, its HNSW index not built yet";
                        });
        }
    }

    private static String counts(JsonNode n) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            if (e.getValue().asLong() == 0) continue;
            if (!sb.isEmpty()) sb.append(", ");
            sb.append(e.getKey()).append(' ').append(e.getValue().asLong());
        }
        return sb.isEmpty() ? "empty" : sb.toString();
    }

    static String uptime(long seconds) {
        long d = seconds / 86_400, h = seconds / 3_600 % 24, m = seconds / 60 % 60, s = seconds % 60;
        if (d > 0) return d + "d " + h + "h " + m + "m";
        if (h > 0) return h + "h " + m + "m";
        if (m > 0) return m + "m " + s + "s";
        return s + "s";
    }

    /** {@code gateway.bind} as a client reaches it: a wildcard bind is asked on loopback. */
    static String loopbackFor(String bind) {
        int colon = bind.lastIndexOf(':');
        String host = bind.substring(0, colon);
        String port = bind.substring(colon + 1);
        if (host.equals("0.0.0.0") || host.isEmpty()) host = "127.0.0.1";
        if (host.equals("[::]") || host.equals("::")) host = "[::1]";
        return host + ":" + port;
    }

    private static String why(IOException e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
    }
}
