package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.contract.PlatformCall;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * {@code /api/<method>}: the Web API's transport (docs.slack.dev/apis/web-api): the token checks ({@code not_authed},
 * {@code invalid_auth}, {@code token_revoked}, {@code account_inactive}, {@code not_allowed_token_type}), the JSON
 * envelope ({@code ok}, {@code error}, {@code warning}, {@code response_metadata}), 429 with {@code Retry-After}
 * (docs.slack.dev/apis/web-api/rate-limits), and the injected faults; the methods themselves are {@link SlackMethods}
 * and {@link SlackFiles}.
 */
final class SlackWebApi {
    static final Set<String> METHODS = Set.of(
            "auth.test",
            "chat.postMessage",
            "chat.update",
            "chat.delete",
            "reactions.add",
            "reactions.remove",
            "conversations.history",
            "conversations.replies",
            "conversations.info",
            "apps.connections.open",
            "files.getUploadURLExternal",
            "files.completeUploadExternal",
            "files.info",
            "assistant.threads.setStatus");

    enum TokenState {
        ACTIVE,
        REVOKED,
        INACTIVE
    }

    /** A rolling window of calls, for automatic per-method limits. */
    private record Limit(int permits, Duration window, ArrayDeque<Long> calls) {}

    private final ReentrantLock lock;
    private final SlackMethods methods;
    private final SlackFiles files;
    private final SlackAssistant assistant;
    private final SocketModeServer socket;
    private final Consumer<List<ObjectNode>> publish;
    private final Consumer<PlatformCall> log;
    private final String botToken;
    private final String appToken;
    private volatile TokenState tokenState = TokenState.ACTIVE;
    private final Map<String, ArrayDeque<Integer>> rateLimited = new HashMap<>();
    private final Map<String, ArrayDeque<Duration>> delays = new HashMap<>();
    private final Map<String, ArrayDeque<String>> failures = new HashMap<>();
    private final Map<String, Limit> limits = new HashMap<>();
    private final Map<String, ArrayDeque<Long>> windows = new HashMap<>();

    SlackWebApi(
            ReentrantLock lock,
            SlackMethods methods,
            SlackFiles files,
            SlackAssistant assistant,
            SocketModeServer socket,
            Consumer<List<ObjectNode>> publish,
            Consumer<PlatformCall> log,
            String botToken,
            String appToken) {
        this.lock = lock;
        this.methods = methods;
        this.files = files;
        this.assistant = assistant;
        this.socket = socket;
        this.publish = publish;
        this.log = log;
        this.botToken = botToken;
        this.appToken = appToken;
    }

    void tokenState(TokenState state) {
        this.tokenState = state;
    }

    void rateLimitNext(String method, int retryAfterSeconds) {
        locked(() ->
                rateLimited.computeIfAbsent(method, m -> new ArrayDeque<>()).add(retryAfterSeconds));
    }

    void delayNext(String method, Duration delay) {
        locked(() -> delays.computeIfAbsent(method, m -> new ArrayDeque<>()).add(delay));
    }

    void failNext(String method, String error) {
        locked(() -> failures.computeIfAbsent(method, m -> new ArrayDeque<>()).add(error));
    }

    void limit(String method, int permits, Duration window) {
        locked(() -> limits.put(method, new Limit(permits, window, new ArrayDeque<>())));
    }

    void handle(Context ctx, String baseUrl, String wsBase) throws InterruptedException {
        String method = ctx.pathParam("method");
        SlackArgs args;
        try {
            args = SlackArgs.read(ctx.header("Authorization"), ctx.contentType(), ctx.queryString(), ctx.bodyAsBytes());
        } catch (SlackApiError e) {
            finish(ctx, method, "{}", "unreadable", 200, error(e, null, false), null);
            return;
        }
        String token = args.headerToken != null ? args.headerToken : args.paramToken;
        String kind =
                token == null ? "none" : token.equals(botToken) ? "bot" : token.equals(appToken) ? "app" : "invalid";
        if (!METHODS.contains(method)) {
            SlackApiError unknown = new SlackApiError("unknown_method");
            finish(ctx, method, args.logBody(), kind, 200, error(unknown, args, false), null);
            return;
        }
        SlackApiError refused = authorize(method, args, kind);
        if (refused != null) {
            finish(ctx, method, args.logBody(), kind, 200, error(refused, args, false), null);
            return;
        }
        Integer retryAfter = retryAfter(method, args);
        if (retryAfter != null) {
            ctx.header("Retry-After", Integer.toString(retryAfter));
            finish(ctx, method, args.logBody(), kind, 429, error(new SlackApiError("ratelimited"), args, false), null);
            return;
        }
        String injected = locked(() -> poll(failures, method));
        if (injected != null) {
            finish(ctx, method, args.logBody(), kind, 200, error(new SlackApiError(injected), args, false), null);
            return;
        }
        SlackMethods.Effects fx = new SlackMethods.Effects();
        ObjectNode body;
        lock.lock();
        try {
            body = ok(call(method, args, fx, baseUrl, wsBase), fx, args);
        } catch (SlackApiError e) {
            body = error(e, args, true);
        } finally {
            lock.unlock();
        }
        publish.accept(fx.events);
        finish(ctx, method, args.logBody(), kind, 200, body, locked(() -> poll(delays, method)));
    }

    private ObjectNode call(String method, SlackArgs a, SlackMethods.Effects fx, String baseUrl, String wsBase)
            throws SlackApiError {
        return switch (method) {
            case "auth.test" -> methods.authTest();
            case "chat.postMessage" -> methods.postMessage(a, fx);
            case "chat.update" -> methods.update(a, fx);
            case "chat.delete" -> methods.delete(a, fx);
            case "reactions.add" -> methods.react(a, true);
            case "reactions.remove" -> methods.react(a, false);
            case "conversations.history" -> methods.history(a);
            case "conversations.replies" -> methods.replies(a);
            case "conversations.info" -> methods.info(a);
            case "apps.connections.open" -> SlackWorld.JSON.createObjectNode().put("url", socket.newUrl(wsBase));
            case "files.getUploadURLExternal" -> files.uploadUrl(a, baseUrl);
            case "files.completeUploadExternal" -> files.complete(a, fx);
            case "files.info" -> files.info(a);
            case "assistant.threads.setStatus" -> assistant.setStatus(a);
            default -> throw new SlackApiError("unknown_method");
        };
    }

    /**
     * apps.connections.open takes only the app-level token, and only in the Authorization header (its reference page:
     * "passing it as a POST parameter will result in an error"); every other method here takes the bot token.
     */
    private SlackApiError authorize(String method, SlackArgs a, String kind) {
        if (kind.equals("none")) return new SlackApiError("not_authed");
        if (kind.equals("invalid")) return new SlackApiError("invalid_auth");
        boolean socketMethod = method.equals("apps.connections.open");
        if (socketMethod && kind.equals("app") && a.headerToken == null) return new SlackApiError("not_authed");
        if (socketMethod != kind.equals("app")) return new SlackApiError("not_allowed_token_type");
        if (kind.equals("bot") && tokenState == TokenState.REVOKED) return new SlackApiError("token_revoked");
        if (kind.equals("bot") && tokenState == TokenState.INACTIVE) return new SlackApiError("account_inactive");
        return null;
    }

    /** Seconds to wait when this call gets 429: injected, or from the method's window (per channel for posts). */
    private Integer retryAfter(String method, SlackArgs a) {
        return locked(() -> {
            Integer injected = poll(rateLimited, method);
            if (injected != null) return injected;
            Limit l = limits.get(method);
            if (l == null) return null;
            // chat.postMessage: "one message per second per channel" (rate-limits, "Special rate limits")
            String key = method.equals("chat.postMessage") ? method + ":" + a.text("channel") : method;
            ArrayDeque<Long> w = windows.computeIfAbsent(key, k -> new ArrayDeque<>());
            long now = System.nanoTime();
            while (!w.isEmpty() && now - w.peekFirst() >= l.window().toNanos()) w.pollFirst();
            if (w.size() < l.permits()) {
                w.addLast(now);
                return null;
            }
            long waitNanos = l.window().toNanos() - (now - w.peekFirst());
            return (int) Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L);
        });
    }

    private static ObjectNode ok(ObjectNode result, SlackMethods.Effects fx, SlackArgs a) {
        ObjectNode body = SlackWorld.JSON.createObjectNode().put("ok", true);
        body.setAll(result);
        List<String> warnings = new java.util.ArrayList<>(fx.warnings);
        if (a.json && a.charsetMissing) warnings.add("missing_charset");
        metadata(body, warnings, fx.messages);
        return body;
    }

    private static ObjectNode error(SlackApiError e, SlackArgs a, boolean withWarnings) {
        ObjectNode body = SlackWorld.JSON.createObjectNode().put("ok", false).put("error", e.code);
        boolean charset = withWarnings && a != null && a.json && a.charsetMissing;
        List<String> warnings = charset ? List.of("missing_charset") : List.of();
        metadata(body, warnings, e.messages);
        return body;
    }

    /** Warnings appear twice, as Slack sends them: comma-joined in {@code warning}, and in response_metadata. */
    private static void metadata(ObjectNode body, List<String> warnings, List<String> messages) {
        if (warnings.isEmpty() && messages.isEmpty()) return;
        ObjectNode meta = body.putObject("response_metadata");
        if (!warnings.isEmpty()) {
            body.put("warning", String.join(",", warnings));
            ArrayNode w = meta.putArray("warnings");
            warnings.forEach(w::add);
        }
        if (!messages.isEmpty()) {
            ArrayNode m = meta.putArray("messages");
            messages.forEach(m::add);
        }
    }

    private void finish(
            Context ctx, String method, String logBody, String tokenKind, int status, ObjectNode body, Duration delay)
            throws InterruptedException {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":token", tokenKind);
        headers.put(":status", Integer.toString(status));
        headers.put(":error", body.path("error").asText(""));
        String type = ctx.contentType();
        if (type != null) headers.put("content-type", type);
        log.accept(new PlatformCall(method, logBody, headers));
        // a late answer: the call took effect, the client may give up before it hears so
        if (delay != null) Thread.sleep(delay);
        ctx.status(status).contentType("application/json; charset=utf-8").result(body.toString());
    }

    private static <T> T poll(Map<String, ArrayDeque<T>> queues, String method) {
        ArrayDeque<T> q = queues.get(method);
        return q == null ? null : q.poll();
    }

    private <T> T locked(java.util.function.Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }
}
