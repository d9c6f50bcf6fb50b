package dev.clawgate.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.server.channel.ApiChannel;
import dev.clawgate.server.channel.WebChatChannel;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's one HTTP server (SPEC OP-3): the OpenAI-compatible API, the web chat, channel
 * webhooks, {@code /healthz}, {@code /readyz} and {@code /metrics} (Prometheus text format). With {@code gateway.auth_token} set every path but
 * {@code /healthz} and webhooks needs it; without one, only a loopback bind starts.
 */
public final class HttpServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HttpServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What {@code /readyz} reports: ready, and one line per part. */
    public record Readiness(boolean ready, Map<String, String> parts) {}

    private final Javalin app;

    private HttpServer(Javalin app) {
        this.app = app;
    }

    /**
     * @param webchat the web chat to serve at {@code /chat}, or null when it is disabled
     * @param metrics the meters in Prometheus' text format, served at {@code /metrics}
     */
    public static HttpServer start(String bind, String authToken, ApiChannel api, WebChatChannel webchat, List<Channel> channels,
                                   Supplier<Readiness> readiness, Supplier<String> metrics) {
        checkBind(bind, authToken);
        HostPort hp = HostPort.parse(bind);
        Map<String, Boolean> exempt = new HashMap<>();
        exempt.put("/healthz", true);
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.concurrency.useVirtualThreads = true;
            config.jetty.host = hp.host();
            config.jetty.port = hp.port();
            config.http.maxRequestSize = 16L * 1024 * 1024;
            for (Channel ch : channels) {
                for (WebhookRoute r : ch.webhookRoutes()) {
                    exempt.put(r.path(), true);
                    config.routes.addHttpHandler(HandlerType.findOrCreate(r.method().toUpperCase(java.util.Locale.ROOT)), r.path(), ctx -> webhook(ctx, r));
                }
            }
            if (webchat != null) WebChatRoutes.mount(config, webchat, authToken, exempt);
            config.routes.before(ctx -> {
                if (authToken == null || authToken.isBlank() || exempt.containsKey(ctx.path())) return;
                if (!authorized(ctx, authToken)) {
                    ctx.status(401).contentType("application/json")
                            .result("{\"error\":{\"message\":\"missing or wrong gateway token\",\"type\":\"unauthorized\"}}");
                    ctx.skipRemainingHandlers();
                }
            });
            config.routes.get("/healthz", ctx -> ctx.result("ok"));
            config.routes.get("/readyz", ctx -> {
                Readiness r = readiness.get();
                ObjectNode body = JSON.createObjectNode().put("ready", r.ready());
                ObjectNode parts = body.putObject("parts");
                r.parts().forEach(parts::put);
                ctx.status(r.ready() ? 200 : 503).contentType("application/json").result(body.toString());
            });
            config.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.get()));
            config.routes.post("/v1/chat/completions", api::chatCompletions);
            config.routes.get("/v1/models", api::models);
            config.routes.exception(Exception.class, (e, ctx) -> {
                log.error("HTTP {} {} failed", ctx.method(), ctx.path(), e);
                ctx.status(500).contentType("application/json").result("{\"error\":{\"message\":\"internal error\",\"type\":\"server_error\"}}");
            });
        });
        app.start();
        log.info("HTTP listening on http://{}:{}", hp.host(), app.port());
        return new HttpServer(app);
    }

    /** SPEC OP-3: without a token, only a loopback bind starts. */
    public static void checkBind(String bind, String authToken) {
        HostPort hp = HostPort.parse(bind);
        if ((authToken == null || authToken.isBlank()) && !isLoopback(hp.host())) {
            throw new IllegalStateException("refusing to listen on " + bind + " without gateway.auth_token: "
                    + "set gateway.auth_token, or bind to 127.0.0.1");
        }
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }

    private static void webhook(Context ctx, WebhookRoute r) {
        Map<String, String> headers = new HashMap<>();
        for (String name : ctx.headerMap().keySet()) headers.put(name, ctx.header(name));
        WebhookRoute.Response resp = r.handler().handle(new WebhookRoute.Request(headers, ctx.bodyAsBytes(), ctx.ip()));
        ctx.status(resp.status());
        if (resp.contentType() != null) ctx.contentType(resp.contentType());
        ctx.result(resp.body() == null ? new byte[0] : resp.body());
    }

    static boolean authorized(Context ctx, String token) {
        String auth = ctx.header("Authorization");
        String given = null;
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) given = auth.substring(7).trim();
        if (given == null) given = ctx.queryParam("token");
        if (given == null) given = ctx.cookie("clawgate_token");
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** {@code host:port}; {@code [::1]:8787} for IPv6. */
    public record HostPort(String host, int port) {
        public static HostPort parse(String bind) {
            int colon = bind.lastIndexOf(':');
            if (colon <= 0) throw new IllegalArgumentException("gateway.bind must be host:port, got '" + bind + "'");
            String host = bind.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
            int port = Integer.parseInt(bind.substring(colon + 1));
            return new HostPort(host, port);
        }
    }
}
