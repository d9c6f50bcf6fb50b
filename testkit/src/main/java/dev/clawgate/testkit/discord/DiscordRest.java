package dev.clawgate.testkit.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.internal.Multipart;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The HTTP API's transport under {@code /api/v10} (developers/reference, "HTTP API", "Authentication", "Uploading
 * Files", "Error Messages"): {@code Authorization: Bot <token>} or 401, JSON or multipart ({@code payload_json} and
 * {@code files[n]}) bodies, the rate limits of {@link RateLimiter}, Discord's error shape, and the injected faults. The
 * routes themselves are {@link MessageRoutes} and the identity routes here.
 */
final class DiscordRest {
    static final String API = "/api/v10";
    /** "The maximum request size when sending a message is 25 MiB" (Create Message, "Limitations"). */
    private static final long MAX_REQUEST = 25L * 1024 * 1024;

    /** One authorized request: its path parameters, the JSON payload, the uploaded files. */
    record Request(Context ctx, ObjectNode json, List<Multipart.Part> files) {
        String path(String name) {
            return ctx.pathParam(name);
        }
    }

    /** The answer: 204 has no body. */
    record Reply(int status, JsonNode body) {
        static Reply ok(JsonNode body) {
            return new Reply(200, body);
        }

        static Reply noContent() {
            return new Reply(204, null);
        }
    }

    @FunctionalInterface
    interface Route {
        Reply handle(Request r) throws DiscordApiError;
    }

    private record Failure(int status, int code, String message) {}

    private final ReentrantLock lock;
    private final DiscordWorld world;
    private final RateLimiter limiter;
    private final Consumer<PlatformCall> log;
    private final Supplier<String> token;
    private final Map<String, ArrayDeque<Duration>> delays = new HashMap<>();
    private final Map<String, ArrayDeque<Failure>> failures = new HashMap<>();

    DiscordRest(
            ReentrantLock lock,
            DiscordWorld world,
            RateLimiter limiter,
            Consumer<PlatformCall> log,
            Supplier<String> token) {
        this.lock = lock;
        this.world = world;
        this.limiter = limiter;
        this.log = log;
        this.token = token;
    }

    void delayNext(String route, Duration d) {
        delays.computeIfAbsent(route, r -> new ArrayDeque<>()).add(d);
    }

    void failNext(String route, int status, int code, String message) {
        failures.computeIfAbsent(route, r -> new ArrayDeque<>()).add(new Failure(status, code, message));
    }

    /**
     * Registers {@code route} ("VERB /path/{channel.id}/...") with its handler; {@code major} names the path parameter
     * of the top-level resource its bucket is counted per.
     */
    void mount(JavalinConfig config, String route, String major, Route handler) {
        int space = route.indexOf(' ');
        String path = API
                + route.substring(space + 1)
                        .replace("{channel.id}", "{channel}")
                        .replace("{message.id}", "{message}");
        HandlerType verb = HandlerType.findOrCreate(route.substring(0, space));
        config.routes.addHttpHandler(verb, path, ctx -> serve(ctx, route, major, handler));
    }

    private void serve(Context ctx, String route, String major, Route handler) throws InterruptedException {
        byte[] raw = ctx.bodyAsBytes();
        Map<String, String> rateHeaders = Map.of();
        Reply reply;
        ObjectNode logged = DiscordWorld.JSON.createObjectNode();
        Duration delay = null;
        lock.lock();
        try {
            String auth = ctx.header("Authorization");
            if (auth == null || !auth.equals("Bot " + token.get())) {
                reply = new Reply(
                        401,
                        DiscordWorld.JSON
                                .createObjectNode()
                                .put("message", "401: Unauthorized")
                                .put("code", 0));
            } else {
                RateLimiter.Decision d = limiter.check(route, major == null ? "" : ctx.pathParam(major));
                rateHeaders = d.headers();
                if (d.limited()) {
                    reply = new Reply(429, d.body());
                } else {
                    reply = run(ctx, route, handler, raw, logged);
                    ArrayDeque<Duration> q = delays.get(route);
                    delay = q == null ? null : q.poll();
                }
            }
        } finally {
            lock.unlock();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":path", ctx.path());
        headers.put(":status", Integer.toString(reply.status()));
        if (reply.status() >= 400 && reply.body() != null)
            headers.put(":code", reply.body().path("code").asText());
        String ua = ctx.header("User-Agent");
        if (ua != null) headers.put("user-agent", ua);
        log.accept(new PlatformCall(route, logged.toString(), headers));
        // a late answer: the request took effect, the client may give up before it hears so
        if (delay != null) Thread.sleep(delay);
        rateHeaders.forEach(ctx::header);
        ctx.status(reply.status());
        if (reply.body() != null)
            ctx.contentType("application/json").result(reply.body().toString());
    }

    private Reply run(Context ctx, String route, Route handler, byte[] raw, ObjectNode logged) {
        try {
            if (raw.length > MAX_REQUEST) throw new DiscordApiError(413, 40005, "Request entity too large");
            Request r = parse(ctx, raw);
            logged.setAll(r.json());
            if (!r.files().isEmpty()) {
                ArrayNode fs = logged.putArray("_files");
                r.files()
                        .forEach(f -> fs.addObject()
                                .put("field", f.name())
                                .put("filename", f.fileName())
                                .put("size", f.bytes().length));
            }
            ArrayDeque<Failure> q = failures.get(route);
            Failure f = q == null ? null : q.poll();
            if (f != null) throw new DiscordApiError(f.status(), f.code(), f.message());
            return handler.handle(r);
        } catch (DiscordApiError e) {
            return new Reply(e.status, e.body());
        }
    }

    /** JSON, or multipart with {@code payload_json} and {@code files[n]} (developers/reference, "Uploading Files"). */
    private static Request parse(Context ctx, byte[] raw) throws DiscordApiError {
        String type = ctx.contentType();
        ObjectNode json = DiscordWorld.JSON.createObjectNode();
        List<Multipart.Part> files = List.of();
        try {
            if (Multipart.isMultipart(type)) {
                List<Multipart.Part> parts = Multipart.parse(type, raw);
                files = parts.stream()
                        .filter(p -> p.name().matches("files\\[\\d+]") && p.isFile())
                        .toList();
                for (Multipart.Part p : parts) {
                    if (p.name().matches("files\\[\\d+]") && !p.isFile()) {
                        throw DiscordApiError.invalidField(p.name(), "BASE_TYPE_REQUIRED", "This field is required");
                    }
                    if (p.name().equals("payload_json")) json.setAll(object(p.bytes()));
                    else if (!p.isFile()) json.put(p.name(), p.text());
                }
            } else if (raw.length > 0) {
                json = object(raw);
            }
        } catch (Multipart.Malformed e) {
            throw new DiscordApiError(400, 50109, "The request body contains invalid JSON.");
        }
        return new Request(ctx, json, files);
    }

    private static ObjectNode object(byte[] raw) throws DiscordApiError {
        try {
            JsonNode n = DiscordWorld.JSON.readTree(raw);
            if (n instanceof ObjectNode o) return o;
        } catch (IOException e) {
            // answered below as Discord answers unreadable bodies
        }
        throw new DiscordApiError(400, 50109, "The request body contains invalid JSON.");
    }

    // ---- identity routes (developers/events/gateway "Get Gateway Bot"; resources/user; resources/application) ----

    void mountIdentity(JavalinConfig config, Supplier<String> gatewayUrl, IntSupplier identifies) {
        config.routes.get(
                API + "/gateway",
                ctx -> ctx.contentType("application/json")
                        .result(DiscordWorld.JSON
                                .createObjectNode()
                                .put("url", gatewayUrl.get())
                                .toString()));
        mount(config, DiscordRoutes.GATEWAY_BOT, null, r -> {
            ObjectNode n = DiscordWorld.JSON
                    .createObjectNode()
                    .put("url", gatewayUrl.get())
                    .put("shards", 1);
            n.putObject("session_start_limit")
                    .put("total", 1000)
                    .put("remaining", 1000 - identifies.getAsInt())
                    .put("reset_after", 14_400_000)
                    .put("max_concurrency", 1);
            return Reply.ok(n);
        });
        mount(
                config,
                DiscordRoutes.CURRENT_USER,
                null,
                r -> Reply.ok(world.userJson(world.bot)
                        .put("verified", true)
                        .put("mfa_enabled", false)
                        .put("flags", 0)));
        mount(config, DiscordRoutes.CURRENT_APPLICATION, null, r -> {
            ObjectNode n = DiscordWorld.JSON
                    .createObjectNode()
                    .put("id", world.applicationId)
                    .put("name", world.bot.username())
                    .put("description", "")
                    .put("bot_public", false)
                    .put("bot_require_code_grant", false)
                    .put("flags", world.applicationFlags)
                    .put("approximate_guild_count", world.guilds.size());
            n.set("bot", world.userJson(world.bot));
            return Reply.ok(n);
        });
    }
}
