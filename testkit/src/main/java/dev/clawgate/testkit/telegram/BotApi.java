package dev.clawgate.testkit.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.telegram.BotRequest.BadRequest;
import dev.clawgate.testkit.telegram.FakeTelegramServer.CallObserver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The fake Telegram's HTTP face: {@code POST /bot<token>/<method>} answered from the {@link BotWorld} and the
 * {@link UpdateFeed}, {@code GET /file/bot<token>/<path>} for downloads, with the failures and stalls a test injected,
 * every call logged in order with its arrival time.
 */
final class BotApi implements HttpHandler {
    private static final Set<String> METHODS = Set.of(
            "getMe",
            "getUpdates",
            "setWebhook",
            "deleteWebhook",
            "getWebhookInfo",
            "sendMessage",
            "editMessageText",
            "deleteMessage",
            "sendPhoto",
            "sendDocument",
            "getFile",
            "setMessageReaction",
            "sendChatAction");

    private final String token;
    private final ReentrantLock lock;
    private final BotWorld world;
    private final UpdateFeed feed;
    private final Map<String, ArrayDeque<BadRequest>> failures = new HashMap<>();
    private final Map<String, ArrayDeque<Duration>> stalls = new HashMap<>();
    private final List<PlatformCall> calls = new ArrayList<>();
    private final List<Instant> callTimes = new ArrayList<>();
    private volatile CallObserver observer;

    BotApi(String token, ReentrantLock lock, BotWorld world, UpdateFeed feed) {
        this.token = token;
        this.lock = lock;
        this.world = world;
        this.feed = feed;
    }

    void observe(CallObserver callObserver) {
        this.observer = callObserver;
    }

    void failNext(String method, BadRequest failure) {
        locked(() -> failures.computeIfAbsent(method, m -> new ArrayDeque<>()).add(failure));
    }

    /** {@code key} is a method, or {@code method:chat id} for one chat only. */
    void stallNext(String key, Duration delay) {
        locked(() -> stalls.computeIfAbsent(key, m -> new ArrayDeque<>()).add(delay));
    }

    List<PlatformCall> calls() {
        return locked(() -> List.copyOf(calls));
    }

    /** The calls and their arrival times, the same length, in order. */
    Map.Entry<List<PlatformCall>, List<Instant>> callsWithTimes() {
        return locked(() -> Map.entry(List.copyOf(calls), List.copyOf(callTimes)));
    }

    void forgetCalls() {
        locked(() -> {
            calls.clear();
            callTimes.clear();
            return null;
        });
    }

    @Override
    public void handle(HttpExchange ex) {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            byte[] body = ex.getRequestBody().readAllBytes();
            if (path.startsWith("/file/bot")) {
                download(ex, path.substring("/file/bot".length()));
                return;
            }
            if (!path.startsWith("/bot") || path.indexOf('/', 4) < 0) {
                answer(ex, 404, error(new BadRequest(404, "Not Found", null)));
                return;
            }
            String givenToken = path.substring(4, path.indexOf('/', 4));
            String method = path.substring(path.indexOf('/', 4) + 1);
            if (!givenToken.equals(token)) {
                answer(ex, 401, error(new BadRequest(401, "Unauthorized", null)));
                return;
            }
            if (!METHODS.contains(method)) {
                answer(ex, 404, error(new BadRequest(404, "Not Found: method not found", null)));
                return;
            }
            BotRequest request;
            try {
                request = BotRequest.parse(ex.getRequestHeaders().getFirst("Content-Type"), body);
            } catch (BadRequest e) {
                answer(ex, e.code, error(e));
                return;
            }
            record(new PlatformCall(method, request.logBody(), Map.of()));
            BadRequest injected = locked(() -> {
                ArrayDeque<BadRequest> q = failures.get(method);
                return q == null ? null : q.poll();
            });
            if (injected != null) {
                answer(ex, injected.code, error(injected));
                return;
            }
            ObjectNode reply;
            JsonNode result;
            try {
                result = method.equals("getUpdates") ? poll(request) : locked(() -> call(method, request));
                reply = BotRequest.JSON.createObjectNode().put("ok", true);
                reply.set("result", result);
                if (method.endsWith("Webhook"))
                    reply.put("description", method.equals("setWebhook") ? "Webhook was set" : "Webhook was deleted");
            } catch (BadRequest e) {
                answer(ex, e.code, error(e));
                return;
            }
            String chat = request.get("chat_id");
            Duration stall = locked(() -> {
                ArrayDeque<Duration> forChat = chat == null ? null : stalls.get(method + ":" + chat);
                if (forChat != null && !forChat.isEmpty()) return forChat.poll();
                ArrayDeque<Duration> q = stalls.get(method);
                return q == null ? null : q.poll();
            });
            CallObserver watching = observer;
            if (watching != null) watching.answered(method, result);
            if (stall != null) Thread.sleep(stall);
            answer(ex, 200, reply);
        } catch (IOException e) {
            // the client hung up (a long poll it abandoned, a timeout): nothing to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private JsonNode call(String method, BotRequest r) throws BadRequest {
        return switch (method) {
            case "getMe" ->
                world.userJson(world.bot).put("can_join_groups", true).put("can_read_all_group_messages", false);
            case "setWebhook" -> feed.setWebhook(r);
            case "deleteWebhook" -> feed.deleteWebhook(r);
            case "getWebhookInfo" -> feed.webhookInfo();
            case "sendMessage" ->
                world.send(r, "text", r.get("text") == null ? "" : r.get("text"), r.get("parse_mode"), null, null);
            case "sendPhoto", "sendDocument" -> media(method, r);
            case "editMessageText" -> world.edit(r);
            case "deleteMessage" -> {
                world.delete(r);
                yield BotRequest.JSON.getNodeFactory().booleanNode(true);
            }
            case "setMessageReaction" -> {
                world.react(r);
                yield BotRequest.JSON.getNodeFactory().booleanNode(true);
            }
            case "sendChatAction" -> {
                world.chatAction(r);
                yield BotRequest.JSON.getNodeFactory().booleanNode(true);
            }
            case "getFile" -> world.file(r);
            default -> throw new BadRequest(404, "Not Found", null);
        };
    }

    private JsonNode media(String method, BotRequest r) throws BadRequest {
        String field = method.equals("sendPhoto") ? "photo" : "document";
        BotRequest.Upload upload = r.files.get(field);
        if (upload == null) throw new BadRequest("Bad Request: there is no " + field + " in the request");
        String caption = r.get("caption") == null ? "" : r.get("caption");
        ObjectNode m = world.send(r, field, caption, r.get("parse_mode"), upload.fileName(), upload.bytes());
        String id = world.registerFile(upload.bytes(), field + "s", upload.fileName());
        if (field.equals("photo"))
            m.putArray("photo")
                    .addObject()
                    .put("file_id", id)
                    .put("file_unique_id", "u" + id)
                    .put("width", 90)
                    .put("height", 90);
        else
            m.putObject("document")
                    .put("file_id", id)
                    .put("file_unique_id", "u" + id)
                    .put("file_name", upload.fileName());
        return m;
    }

    private JsonNode poll(BotRequest r) throws BadRequest, InterruptedException {
        lock.lock();
        try {
            return feed.poll(r);
        } finally {
            lock.unlock();
        }
    }

    private void download(HttpExchange ex, String rest) throws IOException {
        int slash = rest.indexOf('/');
        if (slash < 0 || !rest.substring(0, slash).equals(token)) {
            answer(ex, 401, error(new BadRequest(401, "Unauthorized", null)));
            return;
        }
        record(new PlatformCall(
                "downloadFile",
                BotRequest.JSON
                        .createObjectNode()
                        .put("file_path", rest.substring(slash + 1))
                        .toString(),
                Map.of()));
        byte[] bytes = locked(() -> world.fileBytes.get(rest.substring(slash + 1)));
        if (bytes == null) {
            answer(ex, 404, error(new BadRequest(404, "Not Found", null)));
            return;
        }
        ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
        ex.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) ex.getResponseBody().write(bytes);
    }

    private void record(PlatformCall call) {
        locked(() -> {
            calls.add(call);
            callTimes.add(Instant.now());
            return null;
        });
    }

    private static ObjectNode error(BadRequest e) {
        ObjectNode n = BotRequest.JSON
                .createObjectNode()
                .put("ok", false)
                .put("error_code", e.code)
                .put("description", e.getMessage());
        if (e.retryAfter != null) n.putObject("parameters").put("retry_after", e.retryAfter);
        return n;
    }

    private static void answer(HttpExchange ex, int status, ObjectNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    @FunctionalInterface
    interface Locked<T, E extends Exception> {
        T get() throws E;
    }

    <T, E extends Exception> T locked(Locked<T, E> action) throws E {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }
}
