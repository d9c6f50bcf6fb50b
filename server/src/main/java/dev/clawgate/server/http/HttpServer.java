package dev.clawgate.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.config.RequestBounds;
import dev.clawgate.server.channel.ApiChannel;
import dev.clawgate.server.channel.WebChatChannel;
import dev.clawgate.server.config.ConfigException;
import dev.clawgate.server.control.ControlSources;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's one HTTP server (SPEC OP-3): the OpenAI-compatible API, the web chat, channel webhooks,
 * {@code /healthz}, {@code /readyz} and {@code /metrics} (Prometheus text format). With {@code gateway.auth_token} set
 * every path but {@code /healthz} and webhooks needs it; without one, only a loopback bind starts. Every path but those
 * two is refused to other sites' pages and, on a loopback bind without a token, to non-loopback host names
 * ({@link CallerCheck}); every path has the body limit, timeouts and connection cap of SPEC OP-10 ({@link Listener}).
 */
public final class HttpServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HttpServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What {@code /readyz} reports: ready, and one line per part. */
    public record Readiness(boolean ready, Map<String, String> parts) {}

    private final Javalin app;
    private final ScheduledExecutorService timer;
    private final ControlRoutes control;

    private HttpServer(Javalin app, ScheduledExecutorService timer, ControlRoutes control) {
        this.app = app;
        this.timer = timer;
        this.control = control;
    }

    /**
     * @param bounds the body limit, timeouts and connection cap of every route (SPEC OP-10)
     * @param webchat the web chat to serve at {@code /chat}, or null when it is disabled
     * @param metrics the meters in Prometheus' text format, served at {@code /metrics}
     * @param control what the Control UI at {@code /} and the control API under {@code /api/} read (SPEC OP-3), or null
     *     for none
     */
    public static HttpServer start(
            String bind,
            String authToken,
            RequestBounds bounds,
            ApiChannel api,
            WebChatChannel webchat,
            List<Channel> channels,
            Supplier<Readiness> readiness,
            Supplier<String> metrics,
            ControlSources control) {
        checkBind(bind, authToken);
        HostPort hp = HostPort.parse(bind);
        boolean tokenSet = authToken != null && !authToken.isBlank();
        // one path may carry several methods (a platform's GET subscription check beside its POSTs)
        Map<String, WebhookRoute> webhooks = new HashMap<>();
        for (Channel ch : channels) for (WebhookRoute r : ch.webhookRoutes()) webhooks.put(TooLargeAnswer.key(r), r);
        // checked by their own secret or signature, or carrying nothing (SPEC OP-3)
        Set<String> open = new HashSet<>();
        for (WebhookRoute r : webhooks.values()) open.add(r.path());
        open.add("/healthz");
        // the caller is checked, the token not: the chat page must load to ask for it, its socket checks it itself
        Set<String> tokenFree = new HashSet<>();
        ControlRoutes controlRoutes = control == null ? null : new ControlRoutes(control, authToken);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("clawgate-http-deadlines").factory());
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.concurrency.useVirtualThreads = true;
            Listener.bound(config, hp, bounds, timer, new TooLargeAnswer(webhooks));
            for (WebhookRoute r : webhooks.values()) {
                HandlerType method = HandlerType.findOrCreate(r.method().toUpperCase(java.util.Locale.ROOT));
                config.routes.addHttpHandler(method, r.path(), ctx -> webhook(ctx, r));
            }
            if (webchat != null) WebChatRoutes.mount(config, webchat, authToken, bounds.maxBodyBytes(), tokenFree);
            if (controlRoutes != null) controlRoutes.mount(config, tokenFree);
            config.routes.before(ctx -> {
                if (open.contains(ctx.path())) return;
                // SPEC OP-3: the caller first (Origin, Host), then the token, then the body's type
                Optional<CallerCheck.Refusal> refused = CallerCheck.origin(ctx, tokenSet);
                if (refused.isEmpty() && tokenSet && !tokenFree.contains(ctx.path()) && !authorized(ctx, authToken)) {
                    refused = Optional.of(CallerCheck.NO_TOKEN);
                }
                if (refused.isEmpty()) refused = CallerCheck.contentType(ctx);
                if (refused.isEmpty() && controlRoutes != null) refused = ControlRoutes.csrf(ctx, tokenSet);
                refused.ifPresent(r -> {
                    ctx.status(r.status()).contentType("application/json").result(ErrorBody.of(r.message(), r.type()));
                    ctx.skipRemainingHandlers();
                });
            });
            config.routes.get("/healthz", ctx -> ctx.result("ok"));
            config.routes.get("/readyz", ctx -> {
                Readiness r = readiness.get();
                ObjectNode body = JSON.createObjectNode().put("ready", r.ready());
                ObjectNode parts = body.putObject("parts");
                r.parts().forEach(parts::put);
                ctx.status(r.ready() ? 200 : 503)
                        .contentType("application/json")
                        .result(body.toString());
            });
            config.routes.get(
                    "/metrics",
                    ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                            .result(metrics.get()));
            // SPEC CH-10: the OpenAI API; every route behind the same caller, token and content-type checks
            config.routes.post("/v1/chat/completions", api::chatCompletions);
            config.routes.post("/v1/responses", api::responses);
            config.routes.get("/v1/models", api::models);
            config.routes.get("/v1/models/{id}", api::model);
            config.routes.error(404, ctx -> {
                // an API route's own 404 (an unknown model) is JSON already; an unknown /v1 path gets the envelope too
                String type = ctx.res().getContentType();
                if (ctx.path().startsWith("/v1/") && (type == null || !type.startsWith("application/json"))) {
                    ctx.contentType("application/json")
                            .result(ErrorBody.of(
                                    "Unknown request URL: " + ctx.method() + " " + ctx.path()
                                            + ". Please check the URL for typos.",
                                    "invalid_request_error",
                                    null,
                                    "unknown_url"));
                }
            });
            config.routes.exception(Exception.class, (e, ctx) -> {
                log.error("HTTP {} {} failed", ctx.method(), ctx.path(), e);
                ctx.status(500).contentType("application/json").result(ErrorBody.of("internal error", "server_error"));
            });
        });
        try {
            app.start();
        } catch (RuntimeException e) {
            timer.shutdownNow();
            if (controlRoutes != null) controlRoutes.close();
            throw e;
        }
        log.info("HTTP listening on http://{}:{}", hp.host(), app.port());
        return new HttpServer(app, timer, controlRoutes);
    }

    /** SPEC OP-3: without a token, only a loopback bind starts; a refusal is a config error (exit code 2). */
    public static void checkBind(String bind, String authToken) {
        HostPort hp = HostPort.parse(bind);
        if ((authToken == null || authToken.isBlank()) && !isLoopback(hp.host())) {
            throw new ConfigException("refusing to listen on " + bind + " without gateway.auth_token: "
                    + "set gateway.auth_token, or bind to 127.0.0.1");
        }
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        try {
            app.stop();
        } finally {
            timer.shutdownNow();
            if (control != null) control.close();
        }
    }

    private static void webhook(Context ctx, WebhookRoute r) {
        Map<String, String> headers = new HashMap<>();
        for (String name : ctx.headerMap().keySet()) headers.put(name, ctx.header(name));
        Map<String, String> query = new HashMap<>();
        ctx.queryParamMap().forEach((name, values) -> {
            if (!values.isEmpty()) query.put(name, values.getFirst());
        });
        WebhookRoute.Response resp =
                r.handler().handle(new WebhookRoute.Request(headers, ctx.bodyAsBytes(), ctx.ip(), query));
        ctx.status(resp.status());
        if (resp.contentType() != null) ctx.contentType(resp.contentType());
        ctx.result(resp.body() == null ? new byte[0] : resp.body());
    }

    static boolean authorized(Context ctx, String token) {
        String auth = ctx.header("Authorization");
        String given = null;
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7))
            given = auth.substring(7).trim();
        if (given == null) given = ctx.queryParam("token");
        if (given == null) given = ctx.cookie("clawgate_token");
        return given != null
                && MessageDigest.isEqual(
                        given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
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
