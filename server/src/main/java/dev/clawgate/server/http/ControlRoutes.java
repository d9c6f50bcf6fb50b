package dev.clawgate.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.server.control.ControlApi;
import dev.clawgate.server.control.ControlException;
import dev.clawgate.server.control.ControlSources;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Mounts the Control UI at {@code /} and the control API under {@code /api/} (SPEC OP-3, OP-8, CH-0, OUT-8). The page's
 * three files carry no data and load without the token (the page asks for it); every {@code /api/} route goes through
 * the server's caller and token checks, and an action (any method but GET) takes the token from the
 * {@code Authorization} header only, never a cookie or the query, and is refused to a cross-site request
 * ({@link #csrf}).
 */
final class ControlRoutes implements AutoCloseable {
    static final String PAGE = "/";
    static final String API = "/api/";
    private static final String ASSETS = "/dev/clawgate/server/control/";
    private static final String SECURITY_POLICY =
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

    private final ControlApi api;
    private final boolean tokenSet;

    ControlRoutes(ControlSources sources, String authToken) {
        this.api = new ControlApi(sources, Clock.systemUTC());
        this.tokenSet = authToken != null && !authToken.isBlank();
    }

    /** @param tokenFree paths the token check skips; the page's files are added to it */
    void mount(JavalinConfig config, Set<String> tokenFree) {
        byte[] html = asset("index.html");
        byte[] js = asset("control.js");
        byte[] css = asset("control.css");
        tokenFree.addAll(Set.of(PAGE, "/control/control.js", "/control/control.css"));
        config.routes.get(PAGE, ctx -> file(ctx, html, "text/html; charset=utf-8"));
        config.routes.get("/control/control.js", ctx -> file(ctx, js, "text/javascript; charset=utf-8"));
        config.routes.get("/control/control.css", ctx -> file(ctx, css, "text/css; charset=utf-8"));
        get(config, "status", ctx -> api.status());
        get(config, "channels", ctx -> api.channels());
        get(config, "sessions", ctx -> api.sessions(ctx.queryParam("q"), intParam(ctx, "limit")));
        get(config, "sessions/{id}/transcript", ctx -> api.transcript(ctx.pathParam("id"), intParam(ctx, "limit")));
        get(
                config,
                "turns",
                ctx -> api.turns(
                        ctx.queryParam("session"),
                        ctx.queryParam("since"),
                        ctx.queryParam("inbox"),
                        intParam(ctx, "limit")));
        get(config, "turns/{id}", ctx -> api.turn(ctx.pathParam("id")));
        get(config, "outbox", ctx -> api.outbox(ctx.queryParam("state")));
        post(config, "outbox/{id}/resend", ctx -> api.resend(ctx.pathParam("id")));
        get(config, "pairing", ctx -> api.pairing("true".equals(ctx.queryParam("all"))));
        post(config, "pairing/{code}/approve", ctx -> api.approve(ctx.pathParam("code")));
        post(config, "pairing/{code}/reject", ctx -> api.reject(ctx.pathParam("code")));
        get(
                config,
                "memory/search",
                ctx -> api.memorySearch(ctx.queryParam("q"), ctx.queryParam("scope"), intParam(ctx, "limit")));
        config.routes.addHttpHandler(HandlerType.GET, API + "*", ControlRoutes::unknown);
        config.routes.addHttpHandler(HandlerType.POST, API + "*", ControlRoutes::unknown);
    }

    /**
     * SPEC OP-3: an action of the control API is CSRF-safe. Besides the server's checks for every route (a foreign
     * {@code Origin} is 403, a body must be JSON), a request that changes something must carry the token in its
     * {@code Authorization} header (a browser adds cookies and cannot be made to add a header to another site's
     * request) and is refused when the browser says it comes from another site ({@code Sec-Fetch-Site}).
     */
    static Optional<CallerCheck.Refusal> csrf(Context ctx, boolean tokenSet) {
        if (!ctx.path().startsWith(API)) return Optional.empty();
        HandlerType m = ctx.method();
        if (m == HandlerType.GET || m == HandlerType.HEAD || m == HandlerType.OPTIONS) return Optional.empty();
        String site = ctx.header("Sec-Fetch-Site");
        if (site != null && !site.equals("same-origin") && !site.equals("none")) {
            return Optional.of(new CallerCheck.Refusal(403, "forbidden", "cross-site requests are refused"));
        }
        String auth = ctx.header("Authorization");
        if (tokenSet && (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7))) {
            return Optional.of(new CallerCheck.Refusal(
                    401, "unauthorized", "control actions take the gateway token in the Authorization header only"));
        }
        return Optional.empty();
    }

    private void get(JavalinConfig config, String path, Function<Context, ObjectNode> answer) {
        config.routes.get(API + path, ctx -> answer(ctx, answer));
    }

    private void post(JavalinConfig config, String path, Function<Context, ObjectNode> answer) {
        config.routes.post(API + path, ctx -> answer(ctx, answer));
    }

    private static void answer(Context ctx, Function<Context, ObjectNode> answer) {
        ctx.header("Cache-Control", "no-store");
        try {
            ctx.contentType("application/json").result(answer.apply(ctx).toString());
        } catch (ControlException e) {
            ctx.status(e.status())
                    .contentType("application/json")
                    .result(ErrorBody.of(e.getMessage(), e.status() == 404 ? "not_found" : "invalid_request_error"));
        }
    }

    private static void unknown(Context ctx) {
        ctx.status(404)
                .contentType("application/json")
                .result(ErrorBody.of("no control API route " + ctx.method() + " " + ctx.path(), "not_found"));
    }

    private static int intParam(Context ctx, String name) {
        String raw = ctx.queryParam(name);
        if (raw == null || raw.isBlank()) return 0;
        try {
            return Integer.parseInt(raw.strip());
        } catch (NumberFormatException e) {
            throw new ControlException(400, "'" + name + "' is a number, got '" + raw + "'");
        }
    }

    private static void file(Context ctx, byte[] body, String type) {
        ctx.header("Cache-Control", "no-cache")
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Frame-Options", "DENY")
                .header("Content-Security-Policy", SECURITY_POLICY)
                .contentType(type)
                .result(body);
    }

    private static byte[] asset(String name) {
        try (InputStream in = ControlRoutes.class.getResourceAsStream(ASSETS + name)) {
            if (in == null)
                throw new IllegalStateException("Control UI file missing from the class path: " + ASSETS + name);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        api.close();
    }
}
