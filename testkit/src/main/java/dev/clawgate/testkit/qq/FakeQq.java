package dev.clawgate.testkit.qq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A fake QQ bot open platform on a loopback port, speaking its wire protocol: the app access token endpoint
 * ({@link #tokenUrl()}), the OpenAPI ({@link #apiBase()}: {@code GET /gateway}, group and C2C messages enforcing
 * {@code msg_seq} uniqueness and the passive reply window, rich-media files; see {@link QqOpenApi}), the WebSocket
 * gateway ({@link QqFakeGateway}), and, once {@link #deliverTo} names a callback URL, pushes signed with ed25519
 * ({@link QqSign}) redelivered until answered 200. Calls are logged ({@link #calls()}) by name:
 * {@code getAppAccessToken}, {@code GET /gateway}, {@code messages.group}, {@code messages.c2c}, {@code files.group},
 * {@code files.c2c}, {@code gateway.identify}, {@code gateway.resume}, and {@value #WEBHOOK_ANSWER} for the answers to
 * pushes.
 */
public final class FakeQq implements PlatformCallLog, AutoCloseable {
    public static final String WEBHOOK_ANSWER = "webhook_answer";
    static final ObjectMapper JSON = new ObjectMapper();

    /** A message the bot sent; {@code msgId}/{@code msgSeq} are null for an active message. */
    public record Sent(
            String id,
            String chat,
            boolean group,
            int msgType,
            String content,
            String msgId,
            Integer msgSeq,
            String fileInfo,
            Instant at) {}

    /** A message a user wrote to the bot. */
    public record Received(
            String id, String chat, boolean group, String eventId, String type, ObjectNode d, Instant at) {}

    /** An injected error: the next call named {@code call} is answered with it. */
    public record Failure(String call, int httpStatus, int code, String message) {}

    final ReentrantLock lock = new ReentrantLock();
    final String appId;
    final String secret;
    final Map<String, Instant> tokens = new HashMap<>();
    final List<Sent> sent = new ArrayList<>();
    final Map<String, Received> received = new LinkedHashMap<>();
    final Map<String, Set<Integer>> seqs = new HashMap<>();
    final Map<String, byte[]> files = new HashMap<>();
    final ArrayDeque<Failure> failures = new ArrayDeque<>();
    final Map<String, Duration> delays = new HashMap<>();
    final List<PlatformCall> calls = new CopyOnWriteArrayList<>();
    volatile int expiresIn = 7200;
    volatile boolean activeAllowed;
    volatile Duration groupWindow = Duration.ofMinutes(5);
    volatile Duration c2cWindow = Duration.ofMinutes(60);
    volatile int maxPassive = 5;
    volatile int textLimit = 5000;
    private volatile Duration clockShift = Duration.ZERO;
    private final QqFakeGateway gateway;
    private final QqSign sign;
    private final Javalin app;
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private volatile URI webhook;
    private volatile boolean closed;

    private FakeQq(String appId, String secret) {
        this.appId = appId;
        this.secret = secret;
        this.sign = new QqSign(secret);
        this.gateway = new QqFakeGateway(this::tokenValid, calls::add);
        QqOpenApi api = new QqOpenApi(this);
        app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.concurrency.useVirtualThreads = true;
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.http.maxRequestSize = 32L * 1024 * 1024;
            api.mount(config);
            config.routes.ws("/websocket", ws -> {
                ws.onConnect(ctx -> locked(() -> {
                    gateway.connected(ctx.sessionId(), ctx.session);
                    return null;
                }));
                ws.onMessage(ctx -> locked(() -> {
                    gateway.received(ctx.sessionId(), ctx.message());
                    return null;
                }));
                ws.onClose(ctx -> locked(() -> {
                    gateway.closed(ctx.sessionId());
                    return null;
                }));
                ws.onError(ctx -> locked(() -> {
                    gateway.closed(ctx.sessionId());
                    return null;
                }));
            });
        });
        app.start();
    }

    public static FakeQq start(String appId, String secret) {
        return new FakeQq(appId, secret);
    }

    public String apiBase() {
        return "http://127.0.0.1:" + app.port();
    }

    public String tokenUrl() {
        return apiBase() + "/app/getAppAccessToken";
    }

    String gatewayUrl() {
        return "ws://127.0.0.1:" + app.port() + "/websocket";
    }

    /** The platform's signer for this bot's secret (a test signs an impostor's pushes with another). */
    public QqSign signer() {
        return sign;
    }

    Instant now() {
        return Instant.now().plus(clockShift);
    }

    boolean tokenValid(String token) {
        Instant until = tokens.get(token);
        return until != null && now().isBefore(until);
    }

    // ---- settings ---------------------------------------------------------------------------

    /** {@code expires_in} of tokens issued from now on. */
    public FakeQq tokenExpiry(int seconds) {
        this.expiresIn = seconds;
        return this;
    }

    /** Every token issued so far stops working (as after a secret reset). */
    public void invalidateTokens() {
        locked(() -> {
            tokens.replaceAll((k, v) -> Instant.MIN);
            return null;
        });
    }

    /** Whether the bot may send active messages (no {@code msg_id}); refused with 40034102 by default. */
    public FakeQq allowActive(boolean allowed) {
        this.activeAllowed = allowed;
        return this;
    }

    /** The platform's clock runs {@code d} ahead from now on: messages age without waiting. */
    public void advance(Duration d) {
        clockShift = clockShift.plus(d);
    }

    public FakeQq heartbeatInterval(Duration d) {
        locked(() -> gateway.heartbeatInterval = d);
        return this;
    }

    /** The next call named {@code call} fails, e.g. ({@code messages.group}, 500, 0, "internal error"). */
    public void failNext(String call, int httpStatus, int code, String message) {
        locked(() -> failures.add(new Failure(call, httpStatus, code, message)));
    }

    /** The next call named {@code call} is done, but answered only after {@code delay} (a timeout loses it). */
    public void delayNext(String call, Duration delay) {
        locked(() -> delays.put(call, delay));
    }

    // ---- users write ------------------------------------------------------------------------

    /** Pushes go to this callback URL (webhook mode) instead of the gateway. */
    public FakeQq deliverTo(URI callback) {
        this.webhook = callback;
        return this;
    }

    /** A member @-mentions the bot in a group; the message id. */
    public String groupMessage(String groupOpenid, String memberOpenid, String text) {
        ObjectNode d = JSON.createObjectNode();
        d.putObject("author").put("member_openid", memberOpenid);
        d.put("group_openid", groupOpenid);
        return userWrites("GROUP_AT_MESSAGE_CREATE", groupOpenid, true, d, text);
    }

    /** A user writes to the bot directly; the message id. */
    public String c2cMessage(String userOpenid, String text) {
        ObjectNode d = JSON.createObjectNode();
        d.putObject("author").put("user_openid", userOpenid);
        return userWrites("C2C_MESSAGE_CREATE", userOpenid, false, d, text);
    }

    private String userWrites(String type, String chat, boolean group, ObjectNode d, String text) {
        String id = "ROBOT1.0_" + UUID.randomUUID().toString().replace("-", "");
        Instant at = now();
        d.put("id", id)
                .put("content", (group ? " " : "") + text)
                .put(
                        "timestamp",
                        OffsetDateTime.ofInstant(at, ZoneOffset.ofHours(8)).toString());
        Received r = new Received(id, chat, group, type + ":" + UUID.randomUUID(), type, d, at);
        locked(() -> received.put(id, r));
        deliver(r);
        return id;
    }

    /** The platform sends the event of {@code messageId} again (same event id, same message). */
    public void redeliver(String messageId) {
        deliver(locked(() -> received.get(messageId)));
    }

    private void deliver(Received r) {
        URI target = webhook;
        if (target == null) {
            locked(() -> {
                gateway.dispatch(r.type(), r.d(), r.eventId());
                return null;
            });
            return;
        }
        ObjectNode body =
                JSON.createObjectNode().put("op", 0).put("id", r.eventId()).put("t", r.type());
        body.set("d", r.d());
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        Thread.ofVirtual().name("fake-qq-push").start(() -> push(target, bytes));
    }

    /** Posts one signed callback until it is answered 200 (the platform retries failed pushes). */
    private void push(URI target, byte[] body) {
        long pause = 20;
        for (int attempt = 0; attempt < 50 && !closed; attempt++) {
            try {
                HttpRequest.Builder b = HttpRequest.newBuilder(target)
                        .timeout(Duration.ofSeconds(10))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
                b.header("Content-Type", "application/json");
                sign.headersFor(body).forEach(b::header);
                HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
                calls.add(
                        new PlatformCall(WEBHOOK_ANSWER, r.body(), Map.of(":status", String.valueOf(r.statusCode()))));
                if (r.statusCode() == 200) return;
            } catch (java.io.IOException e) {
                calls.add(new PlatformCall(WEBHOOK_ANSWER, e.toString(), Map.of(":status", "none")));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                return;
            }
            pause = Math.min(500, pause * 2);
        }
    }

    /**
     * The op 13 callback validation: posts {@code plain_token} and {@code event_ts}, signed; true when the answer
     * echoes the token and signs {@code event_ts + plain_token} with this bot's key.
     */
    public boolean validateCallback(URI callback) throws Exception {
        String plain = "plain-" + UUID.randomUUID();
        String ts = String.valueOf(System.currentTimeMillis() / 1000);
        ObjectNode p = JSON.createObjectNode().put("op", 13);
        p.putObject("d").put("plain_token", plain).put("event_ts", ts);
        byte[] body = p.toString().getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder b = HttpRequest.newBuilder(callback).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        sign.headersFor(body).forEach(b::header);
        HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode a = JSON.readTree(r.body());
        return r.statusCode() == 200
                && plain.equals(a.path("plain_token").asText())
                && sign.verifies(
                        (ts + plain).getBytes(StandardCharsets.UTF_8),
                        a.path("signature").asText());
    }

    // ---- the gateway ------------------------------------------------------------------------

    /** Drops every gateway connection abruptly; the session stays resumable. */
    public void dropConnections() {
        locked(() -> {
            gateway.dropAll();
            return null;
        });
    }

    /** Sends op 7 (reconnect) on every gateway connection. */
    public void askReconnect() {
        locked(() -> {
            gateway.askReconnect();
            return null;
        });
    }

    public int connectionsOpened() {
        return locked(gateway::opened);
    }

    /** Connections that got READY or RESUMED: where dispatches now reach the bot. */
    public int readyConnections() {
        return locked(gateway::ready);
    }

    public int liveSessions() {
        return locked(gateway::live);
    }

    // ---- what the platform saw --------------------------------------------------------------

    public List<Sent> sent() {
        return locked(() -> List.copyOf(sent));
    }

    /** The bytes of an uploaded file by its {@code file_info}, or null. */
    public byte[] file(String fileInfo) {
        return locked(() -> files.get(fileInfo));
    }

    @Override
    public List<PlatformCall> calls() {
        return List.copyOf(calls);
    }

    <T> T locked(Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        closed = true;
        app.stop();
    }
}
