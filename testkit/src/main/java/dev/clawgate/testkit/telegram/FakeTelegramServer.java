package dev.clawgate.testkit.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import dev.clawgate.testkit.telegram.BotRequest.BadRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fake Telegram Bot API on a free loopback port: {@code POST /bot<token>/<method>} with JSON,
 * form or multipart bodies, answered {@code {"ok":true,"result":...}} or
 * {@code {"ok":false,"error_code":...,"description":...,"parameters":{...}}} like the real one, and
 * files at {@code GET /file/bot<token>/<path>}. Tests create users and chats, write messages as
 * users ({@code getUpdates} long polling, or pushed to the webhook with its secret header), inject
 * failures, and read what the bot sent; every call is logged for the capability harness.
 */
public final class FakeTelegramServer implements PlatformCallLog, AutoCloseable {
    private static final Set<String> METHODS = Set.of("getMe", "getUpdates", "setWebhook", "deleteWebhook", "getWebhookInfo",
            "sendMessage", "editMessageText", "deleteMessage", "sendPhoto", "sendDocument", "getFile", "setMessageReaction",
            "sendChatAction");
    private static final long MAX_POLL_SECONDS = 50;

    private final String token;
    private final HttpServer http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient pusher = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition updatesArrived = lock.newCondition();
    private final BotWorld world;
    private final TreeMap<Long, ObjectNode> pendingUpdates = new TreeMap<>();
    private final Map<Long, ObjectNode> allUpdates = new HashMap<>();
    private final Map<String, ArrayDeque<BadRequest>> failures = new HashMap<>();
    private final Map<String, ArrayDeque<Duration>> stalls = new HashMap<>();
    private final List<PlatformCall> calls = new CopyOnWriteArrayList<>();
    private final List<java.time.Instant> callTimes = new CopyOnWriteArrayList<>();
    private final List<WebhookPush> pushes = new CopyOnWriteArrayList<>();
    private long nextUpdateId = 100_001;
    private long confirmedOffset;
    private String webhookUrl = "";
    private String webhookSecret;
    private volatile CallObserver observer;
    private volatile boolean closed;

    /** One webhook POST the fake made: the update and the status the bot answered (or -1 when unreachable). */
    public record WebhookPush(long updateId, int status) {}

    /** Told of every call the fake answered with {@code "ok":true}, on the request's thread, before the answer is written. */
    @FunctionalInterface
    public interface CallObserver {
        /** @param result the call's {@code result}, e.g. the sent message of a {@code sendMessage}; do not modify it */
        void answered(String method, JsonNode result);
    }

    private FakeTelegramServer(String token, String botUsername) throws IOException {
        this.token = token;
        this.world = new BotWorld(new TelegramUser(Long.parseLong(token.substring(0, token.indexOf(':'))), botUsername, "Claw", true));
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        http.setExecutor(executor);
        http.createContext("/", this::handle);
        http.start();
    }

    /** Starts the fake for a bot whose token is {@code <bot id>:<secret>} and whose username is {@code botUsername}. */
    public static FakeTelegramServer start(String token, String botUsername) {
        if (!token.matches("\\d+:[A-Za-z0-9_-]+")) throw new IllegalArgumentException("a bot token looks like 123456:ABC-def");
        try {
            return new FakeTelegramServer(token, botUsername);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the fake Telegram server", e);
        }
    }

    /** {@code http://127.0.0.1:PORT}: the {@code api_base} a client configures. */
    public String apiBase() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    public TelegramUser bot() {
        return world.bot;
    }

    // ---- the world --------------------------------------------------------------------------

    public TelegramUser user(long id, String username) {
        return new TelegramUser(id, username, Character.toUpperCase(username.charAt(0)) + username.substring(1), false);
    }

    /** The private chat of {@code user} with the bot (its id is the user's id, as on Telegram). */
    public TelegramChat privateChat(TelegramUser user) {
        return addChat(new TelegramChat(user.id(), "private", null, user, false));
    }

    public TelegramChat group(long id, String title) {
        return addChat(new TelegramChat(id, "supergroup", title, null, false));
    }

    public TelegramChat forum(long id, String title) {
        return addChat(new TelegramChat(id, "supergroup", title, null, true));
    }

    /** Opens a forum topic; returns its {@code message_thread_id} (the id of the topic's service message). */
    public long createTopic(TelegramChat forum, String name) {
        return locked(() -> {
            long id = world.newMessage(forum, world.bot, null, false).put("forum_topic_created", name).get("message_id").asLong();
            world.topics.computeIfAbsent(forum.id(), c -> new java.util.HashSet<>()).add(id);
            return id;
        });
    }

    /** The user blocked the bot: sends to their private chat now fail with 403. */
    public void blockBot(TelegramUser user) {
        locked(() -> world.blockedBy.add(user.id()));
    }

    private TelegramChat addChat(TelegramChat chat) {
        return locked(() -> {
            world.chats.put(chat.id(), chat);
            return chat;
        });
    }

    // ---- what users write: each returns the new message's id ---------------------------------

    public long sendText(TelegramChat chat, TelegramUser from, String text) {
        return inject(chat, from, null, false, null, m -> world.setText(m, "text", "entities", text));
    }

    /** A reply to one of the bot's (or anyone's) messages; outside forums it carries the thread of replies, not a topic. */
    public long replyTo(TelegramChat chat, TelegramUser from, long messageId, String text) {
        return inject(chat, from, chat.forum() ? null : messageId, false, messageId, m -> world.setText(m, "text", "entities", text));
    }

    public long sendTopicText(TelegramChat forum, long threadId, TelegramUser from, String text) {
        return inject(forum, from, threadId, true, null, m -> world.setText(m, "text", "entities", text));
    }

    public long sendPhoto(TelegramChat chat, TelegramUser from, byte[] jpeg, String caption) {
        return inject(chat, from, null, false, null, m -> {
            String id = world.registerFile(jpeg, "photos", "photo.jpg");
            ArrayNode sizes = m.putArray("photo");
            sizes.addObject().put("file_id", id).put("file_unique_id", "u" + id).put("width", 90).put("height", 90).put("file_size", jpeg.length);
            if (caption != null) world.setText(m, "caption", "caption_entities", caption);
        });
    }

    public long sendDocument(TelegramChat chat, TelegramUser from, String fileName, String mimeType, byte[] bytes, String caption) {
        return inject(chat, from, null, false, null, m -> {
            String id = world.registerFile(bytes, "documents", fileName);
            m.putObject("document").put("file_id", id).put("file_unique_id", "u" + id).put("file_name", fileName)
                    .put("mime_type", mimeType).put("file_size", bytes.length);
            if (caption != null) world.setText(m, "caption", "caption_entities", caption);
        });
    }

    /** Delivers update {@code updateId} once more, as Telegram does after a lost acknowledgement. */
    public void redeliver(long updateId) {
        ObjectNode u = locked(() -> allUpdates.get(updateId));
        if (u == null) throw new IllegalArgumentException("no update " + updateId);
        deliver(u);
    }

    /** The id of the last update made. */
    public long lastUpdateId() {
        return locked(() -> nextUpdateId - 1);
    }

    private long inject(TelegramChat chat, TelegramUser from, Long threadId, boolean topic, Long replyTo,
                        java.util.function.Consumer<ObjectNode> content) {
        ObjectNode update = locked(() -> {
            ObjectNode m = world.newMessage(chat, from, threadId, topic);
            if (replyTo != null) m.set("reply_to_message", world.messages.get(chat.id()).get(replyTo).deepCopy());
            content.accept(m);
            ObjectNode u = BotRequest.JSON.createObjectNode().put("update_id", nextUpdateId++);
            u.set("message", m);
            allUpdates.put(u.get("update_id").asLong(), u);
            // under the same lock as the id: a poll must never see update N+1 before N (its offset would skip N for good)
            deliver(u);
            return u;
        });
        return update.get("message").get("message_id").asLong();
    }

    private void deliver(ObjectNode update) {
        String url = locked(() -> webhookUrl);
        if (url.isEmpty()) {
            locked(() -> {
                pendingUpdates.put(update.get("update_id").asLong(), update);
                updatesArrived.signalAll();
                return null;
            });
        } else {
            executor.submit(() -> push(url, update));
        }
    }

    /** Pushes to the webhook, retried like Telegram does while the bot answers non-2xx (a few times, here quickly). */
    private void push(String url, ObjectNode update) {
        for (int attempt = 0; attempt < 5 && !closed; attempt++) {
            int status;
            try {
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(update.toString()));
                String secret = locked(() -> webhookSecret);
                if (secret != null) b.header("X-Telegram-Bot-Api-Secret-Token", secret);
                status = pusher.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            pushes.add(new WebhookPush(update.get("update_id").asLong(), status));
            if (status >= 200 && status < 300) return;
            try {
                Thread.sleep(100L << attempt);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Watches every successful call as it happens (load drivers time replies with it); null stops watching. */
    public void observe(CallObserver callObserver) {
        this.observer = callObserver;
    }

    /**
     * Forgets what a long run piles up, so the fake's memory stays flat: the call log, updates
     * already confirmed by an offset, the typing log, and all but the newest {@code keepPerChat}
     * messages of each chat (with what the bot sent and reacted there). A later reply to a
     * forgotten message fails as on Telegram ("message to be replied not found").
     */
    public void forgetHistory(int keepPerChat) {
        if (keepPerChat < 1) throw new IllegalArgumentException("keepPerChat must be at least 1");
        synchronized (calls) {
            calls.clear();
            callTimes.clear();
        }
        locked(() -> {
            allUpdates.keySet().removeIf(id -> id < confirmedOffset);
            pushes.clear();
            world.forgetBefore(keepPerChat);
            return null;
        });
    }

    // ---- failures -----------------------------------------------------------------------------

    /** The next call of {@code method} fails with {@code code} (429 carries {@code retry_after}). */
    public void failNext(String method, int code, int retryAfter) {
        String description = switch (code) {
            case 429 -> "Too Many Requests: retry after " + retryAfter;
            case 403 -> "Forbidden: bot was blocked by the user";
            case 400 -> "Bad Request: chat not found";
            case 401 -> "Unauthorized";
            case 502 -> "Bad Gateway";
            default -> "Internal Server Error";
        };
        failNext(method, code, description, code == 429 ? retryAfter : null);
    }

    /** The next call of {@code method} fails with exactly this answer. */
    public void failNext(String method, int code, String description, Integer retryAfter) {
        locked(() -> failures.computeIfAbsent(method, m -> new ArrayDeque<>()).add(new BadRequest(code, description, retryAfter)));
    }

    /** The next call of {@code method} is processed, then answered only after {@code delay} (a client timeout is ambiguous). */
    public void stallNext(String method, Duration delay) {
        locked(() -> stalls.computeIfAbsent(method, m -> new ArrayDeque<>()).add(delay));
    }

    // ---- what the bot did ---------------------------------------------------------------------

    @Override
    public List<PlatformCall> calls() {
        return List.copyOf(calls);
    }

    /** The calls of one method, their bodies parsed (uploads summarised as {@code {"file_name","size"}}). */
    public List<JsonNode> calls(String method) {
        List<JsonNode> out = new ArrayList<>();
        for (PlatformCall c : calls) {
            if (!c.method().equals(method)) continue;
            try {
                out.add(BotRequest.JSON.readTree(c.body()));
            } catch (IOException e) {
                throw new IllegalStateException("the call log holds JSON only", e);
            }
        }
        return out;
    }

    /** When each call of {@code method} arrived, in order. */
    public List<java.time.Instant> callTimes(String method) {
        List<PlatformCall> all;
        List<java.time.Instant> times;
        synchronized (calls) {
            all = List.copyOf(calls);
            times = List.copyOf(callTimes);
        }
        List<java.time.Instant> out = new ArrayList<>();
        for (int i = 0; i < Math.min(all.size(), times.size()); i++) if (all.get(i).method().equals(method)) out.add(times.get(i));
        return out;
    }

    /** Every message the bot sent, in order, as it stands now. */
    public List<SentMessage> sent() {
        return locked(() -> List.copyOf(world.sent.values()));
    }

    public List<SentMessage> sentTo(TelegramChat chat) {
        return sent().stream().filter(m -> m.chatId() == chat.id() && !m.deleted()).toList();
    }

    /** The reactions the bot set on a message, in order. */
    public List<String> reactions(TelegramChat chat, long messageId) {
        return locked(() -> List.copyOf(world.reactions.getOrDefault(BotWorld.key(chat.id(), messageId), List.of())));
    }

    /** {@code chat:action} for every sendChatAction, in order. */
    public List<String> chatActions() {
        return locked(() -> List.copyOf(world.chatActionLog));
    }

    /** The highest offset a getUpdates call confirmed: updates below it are gone for good. */
    public long confirmedOffset() {
        return locked(() -> confirmedOffset);
    }

    /** Updates not yet confirmed by an offset. */
    public int pendingUpdates() {
        return locked(pendingUpdates::size);
    }

    public String webhookUrl() {
        return locked(() -> webhookUrl);
    }

    public List<WebhookPush> webhookPushes() {
        return List.copyOf(pushes);
    }

    @Override
    public void close() {
        closed = true;
        locked(() -> {
            updatesArrived.signalAll();
            return null;
        });
        http.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- HTTP ---------------------------------------------------------------------------------

    private void handle(HttpExchange ex) {
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
                result = method.equals("getUpdates") ? getUpdates(request) : locked(() -> call(method, request));
                reply = BotRequest.JSON.createObjectNode().put("ok", true);
                reply.set("result", result);
                if (method.endsWith("Webhook")) reply.put("description", method.equals("setWebhook") ? "Webhook was set" : "Webhook was deleted");
            } catch (BadRequest e) {
                answer(ex, e.code, error(e));
                return;
            }
            Duration stall = locked(() -> {
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
            case "getMe" -> world.userJson(world.bot).put("can_join_groups", true).put("can_read_all_group_messages", false);
            case "setWebhook" -> {
                String url = r.get("url") == null ? "" : r.get("url");
                String secret = r.get("secret_token");
                if (secret != null && !secret.matches("[A-Za-z0-9_-]{1,256}")) throw new BadRequest("Bad Request: secret token contains unallowed characters");
                if (!url.isEmpty() && !url.startsWith("https://") && !url.startsWith("http://127.0.0.1")) {
                    throw new BadRequest("Bad Request: bad webhook: An HTTPS URL must be provided for webhook");
                }
                webhookUrl = url;
                webhookSecret = secret;
                List<ObjectNode> queued = new ArrayList<>(pendingUpdates.values());
                pendingUpdates.clear();
                if (!url.isEmpty()) for (ObjectNode u : queued) executor.submit(() -> push(url, u));
                yield BotRequest.JSON.getNodeFactory().booleanNode(true);
            }
            case "deleteWebhook" -> {
                webhookUrl = "";
                webhookSecret = null;
                if (r.flag("drop_pending_updates")) pendingUpdates.clear();
                yield BotRequest.JSON.getNodeFactory().booleanNode(true);
            }
            case "getWebhookInfo" -> BotRequest.JSON.createObjectNode().put("url", webhookUrl).put("pending_update_count", pendingUpdates.size());
            case "sendMessage" -> world.send(r, "text", r.get("text") == null ? "" : r.get("text"), r.get("parse_mode"), null, null);
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
        if (field.equals("photo")) m.putArray("photo").addObject().put("file_id", id).put("file_unique_id", "u" + id).put("width", 90).put("height", 90);
        else m.putObject("document").put("file_id", id).put("file_unique_id", "u" + id).put("file_name", upload.fileName());
        return m;
    }

    /** Long polling: confirms updates below {@code offset}, then answers at once or when one arrives, within {@code timeout}. */
    private JsonNode getUpdates(BotRequest r) throws BadRequest, InterruptedException {
        Long offset = r.optionalLong("offset");
        Long limit = r.optionalLong("limit");
        Long timeout = r.optionalLong("timeout");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.min(MAX_POLL_SECONDS, timeout == null ? 0 : timeout));
        lock.lock();
        try {
            if (!webhookUrl.isEmpty()) {
                throw new BadRequest(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first", null);
            }
            if (offset != null && offset > 0) {
                pendingUpdates.headMap(offset).clear();
                confirmedOffset = Math.max(confirmedOffset, offset);
            }
            long from = offset == null ? 0 : offset;
            while (pendingUpdates.tailMap(from).isEmpty() && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) break;
                updatesArrived.awaitNanos(left);
            }
            ArrayNode out = BotRequest.JSON.createArrayNode();
            int max = limit == null || limit <= 0 ? 100 : (int) Math.min(100, limit);
            for (ObjectNode u : pendingUpdates.tailMap(from).values()) {
                if (out.size() >= max) break;
                out.add(u);
            }
            return out;
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
        record(new PlatformCall("downloadFile", BotRequest.JSON.createObjectNode().put("file_path", rest.substring(slash + 1)).toString(), Map.of()));
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
        synchronized (calls) {
            calls.add(call);
            callTimes.add(java.time.Instant.now());
        }
    }

    private static ObjectNode error(BadRequest e) {
        ObjectNode n = BotRequest.JSON.createObjectNode().put("ok", false).put("error_code", e.code).put("description", e.getMessage());
        if (e.retryAfter != null) n.putObject("parameters").put("retry_after", e.retryAfter);
        return n;
    }

    private static void answer(HttpExchange ex, int status, ObjectNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    @FunctionalInterface
    private interface Locked<T, E extends Exception> {
        T get() throws E;
    }

    private <T, E extends Exception> T locked(Locked<T, E> action) throws E {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "FakeTelegramServer[" + apiBase() + ", bot=@" + world.bot.username() + "]";
    }
}
