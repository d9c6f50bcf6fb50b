package dev.clawgate.testkit.lark;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.PlatformCallLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fake Lark/Feishu open platform on a loopback port ({@link #apiBase()}, the channel's {@code api_base}): the tenant
 * token endpoint ({@code expire} in seconds), {@code im/v1} messages (create, reply, update; a repeated {@code uuid}
 * gives the first message back, no second one), image upload and message resources, reactions, the bot's info, injected
 * errors; and the events users cause, delivered one of two ways. With {@link #deliverTo} set, by HTTP event
 * subscription ({@link LarkPusher}: v2.0 events POSTed, signed and encrypted when an {@code encrypt_key} is set, until
 * answered 200); else over the long connection ({@link LongConnectionServer}: {@code /callback/ws/endpoint}, pbbp2
 * frames on a loopback WebSocket, pushed again until acked with code 200). Calls are logged ({@link #calls()}) by name:
 * {@code tenant_access_token}, {@code messages.create}, {@code messages.reply}, {@code messages.update},
 * {@code messages.patch}, {@code images.upload}, {@code messages.resources}, {@code reactions.create},
 * {@code reactions.delete}, {@code messages.delete} (a recall), {@code bot.info}, {@value #WEBHOOK_ANSWER} for the
 * gateway's answers to pushes, and the long connection's {@code ws.endpoint}, {@code ws.connect}, {@code ws.ping},
 * {@code ws.ack}.
 */
public final class FakeLark implements PlatformCallLog, AutoCloseable {
    public static final String WEBHOOK_ANSWER = "webhook_answer";

    final String appId;
    final String appSecret;
    final String botOpenId = "ou_bot0000000000000000000000000000";
    volatile int expireSeconds = 7200;
    final LarkChats chats = new LarkChats();
    private final String verificationToken;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Instant> tokens = new HashMap<>();
    private final ArrayDeque<Failure> failures = new ArrayDeque<>();
    private final Map<String, Duration> delays = new HashMap<>();
    private final LarkDeliveries deliveries = new LarkDeliveries();
    private final List<PlatformCall> calls = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();
    private final HttpServer http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final LarkPusher pusher;
    private final LongConnectionServer socket;

    /** A message the bot sent; {@code edits} are the contents of later updates, in order. */
    public record Sent(
            String messageId,
            String chatId,
            String msgType,
            String content,
            String parentId,
            String uuid,
            List<String> edits) {}

    public record Reaction(String reactionId, String messageId, String emojiType, boolean removed) {}

    /** An injected error: the next call named {@code call} is answered with it. */
    public record Failure(String call, int httpStatus, int code, String msg) {}

    /** What the gateway answered one push. */
    public record Answer(int status, String body) {}

    private FakeLark(String appId, String appSecret, String verificationToken, String encryptKey) throws IOException {
        this.appId = appId;
        this.appSecret = appSecret;
        this.verificationToken = verificationToken;
        pusher = new LarkPusher(encryptKey, deliveries, calls::add, executor);
        socket = new LongConnectionServer(appId, appSecret, deliveries, calls::add, () -> pusher.retryAttempts);
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        http.setExecutor(executor);
        LarkOpenApi api = new LarkOpenApi(this);
        http.createContext("/open-apis/", api::handle);
        http.createContext("/callback/ws/endpoint", ex -> api.endpoint(ex, socket));
        http.start();
    }

    /** @param encryptKey null: events are pushed in plain JSON and unsigned, as with no Encrypt Key set */
    public static FakeLark start(String appId, String appSecret, String verificationToken, String encryptKey) {
        try {
            return new FakeLark(appId, appSecret, verificationToken, encryptKey);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the fake Lark open platform", e);
        }
    }

    /** {@code http://127.0.0.1:PORT}: what {@code api_base} is for {@code https://open.feishu.cn}. */
    public String apiBase() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    public String botOpenId() {
        return botOpenId;
    }

    public String appId() {
        return appId;
    }

    /** The {@code expire} (seconds) of tokens issued from now on; an issued token stops working when it passes. */
    public FakeLark tokenExpiry(int seconds) {
        this.expireSeconds = seconds;
        return this;
    }

    /** Every token issued so far answers 99991663 from now on (revoked, as after a secret reset). */
    public void invalidateTokens() {
        locked(() -> tokens.replaceAll((k, v) -> Instant.MIN));
    }

    /** The next call named {@code call} fails: e.g. ({@code messages.reply}, 429, 99991400, "request trigger ...") */
    public void failNext(String call, int httpStatus, int code, String msg) {
        locked(() -> failures.add(new Failure(call, httpStatus, code, msg)));
    }

    /** The next call named {@code call} is answered only after {@code delay} (a client's timeout loses it). */
    public void delayNext(String call, Duration delay) {
        locked(() -> delays.put(call, delay));
    }

    /**
     * How a push not answered 200 is retried: after {@code min}, doubling up to {@code max}, at most
     * {@code maxAttempts} POSTs in all (the platform retries a failed push for hours; a test shortens the pauses). Over
     * the long connection {@code maxAttempts} caps the pushes of one event too.
     */
    public FakeLark retryBackoff(Duration min, Duration max, int maxAttempts) {
        pusher.retryMin = min;
        pusher.retryMax = max;
        pusher.retryAttempts = maxAttempts;
        return this;
    }

    // ---- users write -----------------------------------------------------------------------

    /** Events go to {@code webhook} by HTTP event subscription from now on (else over the long connection). */
    public FakeLark deliverTo(URI webhook) {
        pusher.target = webhook;
        return this;
    }

    /**
     * The long connection's ClientConfig, in seconds (the platform's are 120, 120, 30; the fake's defaults, 30, 2, 0,
     * keep tests fast).
     */
    public FakeLark clientConfig(int pingInterval, int reconnectInterval, int reconnectNonce) {
        socket.pingInterval = pingInterval;
        socket.reconnectInterval = reconnectInterval;
        socket.reconnectNonce = reconnectNonce;
        return this;
    }

    /** An event not acked within {@code timeout} over the long connection is pushed again (the platform's 3 s). */
    public FakeLark ackTimeout(Duration timeout) {
        socket.ackTimeout = timeout;
        return this;
    }

    /** Each event over the long connection is split over {@code n} data frames ({@code sum}, {@code seq}). */
    public FakeLark framesPerEvent(int n) {
        socket.parts = n;
        return this;
    }

    /** Drops the long connections' TCP streams without a close frame, as a network cut does. */
    public void dropConnections() {
        socket.dropAll();
    }

    /** Long connections opened so far. */
    public int connectionsOpened() {
        return socket.connectionsOpened();
    }

    public int openConnections() {
        return socket.openConnections();
    }

    /** A user's text; {@code mentions} are open ids mentioned ({@code @_user_N} placed before the text). */
    public String userSendsText(String openId, String chatId, String chatType, String text, String... mentions) {
        StringBuilder t = new StringBuilder();
        for (int i = 0; i < mentions.length; i++)
            t.append("@_user_").append(i + 1).append(' ');
        return userSends(openId, chatId, chatType, "text", LarkEvents.text(t + text), mentions);
    }

    /** A user's image: its bytes become the message's resource, fetched with {@code type=image}. */
    public String userSendsImage(String openId, String chatId, String chatType, byte[] image) {
        String key = "img_v3_" + UUID.randomUUID().toString().replace("-", "");
        String messageId = "om_" + UUID.randomUUID().toString().replace("-", "");
        chats.resource(messageId, key, image);
        pushMessage(messageId, openId, chatId, chatType, "image", LarkEvents.image(key));
        return messageId;
    }

    /** Any message type with its content JSON (e.g. a {@code post}); its message id. */
    public String userSends(
            String openId, String chatId, String chatType, String msgType, String content, String... mentions) {
        String messageId = "om_" + UUID.randomUUID().toString().replace("-", "");
        pushMessage(messageId, openId, chatId, chatType, msgType, content, mentions);
        return messageId;
    }

    private void pushMessage(
            String messageId,
            String openId,
            String chatId,
            String chatType,
            String type,
            String content,
            String... mentions) {
        chats.userMessage(messageId, chatId);
        push(LarkEvents.messageReceive(
                "ev_" + ids.incrementAndGet() + "_" + System.nanoTime(),
                verificationToken,
                appId,
                messageId,
                openId,
                chatId,
                chatType,
                type,
                content,
                mentions));
    }

    /** Delivers an event (by the mode in force) until the gateway accepts it; its delivery id. */
    public String push(ObjectNode event) {
        String id = "delivery-" + ids.incrementAndGet();
        deliveries.add(id, event.toString());
        send(id);
        return id;
    }

    /** Delivers {@code id} once more, as the platform does when it missed the 200 or the ack. */
    public void redeliver(String id) {
        send(id);
    }

    private void send(String id) {
        if (pusher.target != null) pusher.push(id);
        else socket.deliver(id);
    }

    public List<String> deliveryIds() {
        return deliveries.ids();
    }

    /** Deliveries the gateway has not accepted (answered 200, or acked with code 200) yet. */
    public List<String> unaccepted() {
        return deliveries.unaccepted();
    }

    /** Pushes made of delivery {@code id} so far, refused connections and cut answers included. */
    public int pushAttempts(String id) {
        return deliveries.attempts(id);
    }

    /** The bytes the platform posts for an event's JSON: {@code {"encrypt": ...}} when an encrypt key is set. */
    public byte[] body(String json) {
        return pusher.body(json);
    }

    /** The headers the platform adds to a push of {@code body} (none without an encrypt key). */
    public Map<String, String> signedHeaders(byte[] body) {
        return pusher.signedHeaders(body);
    }

    /** One POST with exactly these headers, no redelivery. */
    public Answer postOnce(byte[] body, Map<String, String> headers) throws IOException, InterruptedException {
        return pusher.postOnce(body, headers);
    }

    /** The url_verification handshake the console sends when the request URL is saved. */
    public Answer verifyUrl(String challenge) throws IOException, InterruptedException {
        byte[] body =
                body(LarkEvents.urlVerification(challenge, verificationToken).toString());
        return postOnce(body, signedHeaders(body));
    }

    // ---- what the bot did ------------------------------------------------------------------

    public List<Sent> sent() {
        return chats.sent();
    }

    /** What a chat shows of the bot: its messages not recalled, each as its latest content. */
    public List<String> visible(String chatId) {
        return chats.visible(chatId);
    }

    public List<Reaction> reactions() {
        return chats.reactions();
    }

    /** The bytes uploaded under {@code imageKey}, or null. */
    public byte[] image(String imageKey) {
        return chats.image(imageKey);
    }

    @Override
    public List<PlatformCall> calls() {
        return List.copyOf(calls);
    }

    @Override
    public void close() {
        pusher.closed = true;
        socket.close();
        http.stop(0);
        executor.shutdownNow();
    }

    // ---- used by LarkOpenApi -----------------------------------------------------------------

    void log(PlatformCall call) {
        calls.add(call);
    }

    void delayIfAsked(String call) {
        Duration d = locked(() -> delays.remove(call));
        if (d == null) return;
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    Failure takeFailure(String call) {
        return locked(() -> {
            Failure f = failures.stream()
                    .filter(x -> x.call().equals(call))
                    .findFirst()
                    .orElse(null);
            if (f != null) failures.remove(f);
            return f;
        });
    }

    String issueToken() {
        String t = "t-" + UUID.randomUUID().toString().replace("-", "");
        locked(() -> tokens.put(t, Instant.now().plusSeconds(expireSeconds)));
        return t;
    }

    boolean tokenValid(String token) {
        return locked(() -> {
            Instant until = tokens.get(token);
            return until != null && Instant.now().isBefore(until);
        });
    }

    private void locked(Runnable r) {
        locked(() -> {
            r.run();
            return null;
        });
    }

    private <T> T locked(java.util.function.Supplier<T> s) {
        lock.lock();
        try {
            return s.get();
        } finally {
            lock.unlock();
        }
    }
}
