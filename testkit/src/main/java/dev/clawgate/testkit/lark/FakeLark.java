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
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * errors; and the event pusher, which POSTs v2.0 events (signed with {@code X-Lark-Signature} and encrypted when an
 * {@code encrypt_key} is set) to the gateway and redelivers until it answers 200. Calls are logged ({@link #calls()})
 * by name: {@code tenant_access_token}, {@code messages.create}, {@code messages.reply}, {@code messages.update},
 * {@code images.upload}, {@code messages.resources}, {@code reactions.create}, {@code reactions.delete},
 * {@code messages.delete} (a recall), {@code bot.info}, and {@value #WEBHOOK_ANSWER} for the gateway's answers.
 */
public final class FakeLark implements PlatformCallLog, AutoCloseable {
    public static final String WEBHOOK_ANSWER = "webhook_answer";

    final String appId;
    final String appSecret;
    final String botOpenId = "ou_bot0000000000000000000000000000";
    volatile int expireSeconds = 7200;
    private final String verificationToken;
    private final String encryptKey;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Instant> tokens = new HashMap<>();
    private final List<Sent> sent = new ArrayList<>();
    private final Map<String, String> byUuid = new HashMap<>();
    private final Map<String, String> chatOfMessage = new HashMap<>();
    private final Map<String, byte[]> images = new HashMap<>();
    private final Map<String, byte[]> resources = new HashMap<>();
    private final List<Reaction> reactions = new ArrayList<>();
    private final ArrayDeque<Failure> failures = new ArrayDeque<>();
    private final Map<String, Duration> delays = new HashMap<>();
    private final java.util.Set<String> recalled = new java.util.HashSet<>();
    private final Map<String, byte[]> deliveries = new LinkedHashMap<>();
    private final Map<String, Integer> pushAttempts = new HashMap<>();
    private final List<PlatformCall> calls = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();
    private final HttpServer http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    private volatile URI target;
    private volatile boolean closed;
    private volatile Duration retryMin = Duration.ofMillis(20);
    private volatile Duration retryMax = Duration.ofMillis(500);
    private volatile int retryAttempts = 50;

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
        this.encryptKey = encryptKey;
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        http.setExecutor(executor);
        LarkOpenApi api = new LarkOpenApi(this);
        http.createContext("/open-apis/", api::handle);
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
     * {@code maxAttempts} POSTs in all (the platform retries a failed push for hours; a test shortens the pauses).
     */
    public FakeLark retryBackoff(Duration min, Duration max, int maxAttempts) {
        this.retryMin = min;
        this.retryMax = max;
        this.retryAttempts = maxAttempts;
        return this;
    }

    // ---- users write -----------------------------------------------------------------------

    public FakeLark deliverTo(URI webhook) {
        this.target = webhook;
        return this;
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
        locked(() -> resources.put(messageId + "/" + key, image));
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
        locked(() -> chatOfMessage.put(messageId, chatId));
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

    /** Pushes an event body (encrypted when an encrypt key is set) until answered 200; its delivery id. */
    public String push(ObjectNode event) {
        if (target == null) throw new IllegalStateException("call deliverTo(webhook url) first");
        byte[] body = body(event.toString());
        String id = "delivery-" + ids.incrementAndGet();
        locked(() -> deliveries.put(id, body));
        executor.submit(() -> deliverUntilAccepted(id, body));
        return id;
    }

    /** Pushes delivery {@code id} once more, as the platform does when it missed the 200. */
    public void redeliver(String id) {
        byte[] body = locked(() -> deliveries.get(id));
        executor.submit(() -> deliverUntilAccepted(id, body));
    }

    public List<String> deliveryIds() {
        return locked(() -> List.copyOf(deliveries.keySet()));
    }

    /** POSTs made of delivery {@code id} so far, refused connections and cut answers included. */
    public int pushAttempts(String id) {
        return locked(() -> pushAttempts.getOrDefault(id, 0));
    }

    /** The bytes the platform posts for an event's JSON: {@code {"encrypt": ...}} when an encrypt key is set. */
    public byte[] body(String json) {
        String out = encryptKey == null
                ? json
                : LarkEvents.JSON
                        .createObjectNode()
                        .put("encrypt", LarkCrypto.encrypt(encryptKey, json))
                        .toString();
        return out.getBytes(StandardCharsets.UTF_8);
    }

    /** The headers the platform adds to a push of {@code body} (none without an encrypt key). */
    public Map<String, String> signedHeaders(byte[] body) {
        if (encryptKey == null) return Map.of();
        String ts = Long.toString(Instant.now().getEpochSecond());
        String nonce = UUID.randomUUID().toString();
        return Map.of(
                LarkCrypto.TIMESTAMP,
                ts,
                LarkCrypto.NONCE,
                nonce,
                LarkCrypto.SIGNATURE,
                LarkCrypto.sign(ts, nonce, encryptKey, body));
    }

    /** One POST with exactly these headers, no redelivery. */
    public Answer postOnce(byte[] body, Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(target)
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json; charset=utf-8");
        headers.forEach(b::header);
        HttpResponse<String> r = client.send(
                b.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    /** The url_verification handshake the console sends when the request URL is saved. */
    public Answer verifyUrl(String challenge) throws IOException, InterruptedException {
        byte[] body =
                body(LarkEvents.urlVerification(challenge, verificationToken).toString());
        return postOnce(body, signedHeaders(body));
    }

    private void deliverUntilAccepted(String id, byte[] body) {
        long pause = retryMin.toMillis();
        for (int attempt = 0; attempt < retryAttempts && !closed; attempt++) {
            int status;
            locked(() -> pushAttempts.merge(id, 1, Integer::sum));
            try {
                Answer a = postOnce(body, signedHeaders(body));
                status = a.status();
                calls.add(new PlatformCall(
                        WEBHOOK_ANSWER, a.body(), Map.of(":status", Integer.toString(status), "delivery-id", id)));
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (status == 200) return;
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            pause = Math.min(pause * 2, retryMax.toMillis());
        }
    }

    // ---- what the bot did ------------------------------------------------------------------

    public List<Sent> sent() {
        return locked(() -> List.copyOf(sent));
    }

    /** What a chat shows of the bot: its messages not recalled, each as its latest content. */
    public List<String> visible(String chatId) {
        return locked(() -> sent.stream()
                .filter(s -> s.chatId().equals(chatId) && !recalled.contains(s.messageId()))
                .map(s -> s.edits().isEmpty() ? s.content() : s.edits().getLast())
                .toList());
    }

    public List<Reaction> reactions() {
        return locked(() -> List.copyOf(reactions));
    }

    /** The bytes uploaded under {@code imageKey}, or null. */
    public byte[] image(String imageKey) {
        return locked(() -> images.get(imageKey));
    }

    @Override
    public List<PlatformCall> calls() {
        return List.copyOf(calls);
    }

    @Override
    public void close() {
        closed = true;
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

    /** False when the bot sent no such message (or it is recalled already). */
    boolean recall(String messageId) {
        return locked(() -> sent.stream().anyMatch(s -> s.messageId().equals(messageId)) && recalled.add(messageId));
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

    String chatOf(String messageId) {
        return locked(() -> chatOfMessage.get(messageId));
    }

    Sent record(String chatId, String type, String content, String parentId, String uuid) {
        return locked(() -> {
            if (uuid != null && byUuid.containsKey(uuid)) {
                String known = byUuid.get(uuid);
                return sent.stream()
                        .filter(s -> s.messageId().equals(known))
                        .findFirst()
                        .orElseThrow();
            }
            String id = "om_" + UUID.randomUUID().toString().replace("-", "");
            Sent s = new Sent(id, chatId, type, content, parentId, uuid, new CopyOnWriteArrayList<>());
            sent.add(s);
            chatOfMessage.put(id, chatId);
            if (uuid != null) byUuid.put(uuid, id);
            return s;
        });
    }

    /** 200, 404 (no such message of the bot) or 429 (edited {@value LarkOpenApi#MAX_EDITS} times already). */
    int edit(String messageId, String type, String content) {
        return locked(() -> {
            Sent s = sent.stream()
                    .filter(x -> x.messageId().equals(messageId))
                    .findFirst()
                    .orElse(null);
            if (s == null || !s.msgType().equals(type) || recalled.contains(messageId)) return 404;
            if (s.edits().size() >= LarkOpenApi.MAX_EDITS) return 429;
            s.edits().add(content);
            return 200;
        });
    }

    String storeImage(byte[] bytes) {
        String key = "img_v3_" + UUID.randomUUID().toString().replace("-", "");
        locked(() -> images.put(key, bytes));
        return key;
    }

    byte[] resource(String messageId, String key) {
        return locked(() -> resources.get(messageId + "/" + key));
    }

    String react(String messageId, String emoji) {
        String id = "rc_" + ids.incrementAndGet();
        locked(() -> reactions.add(new Reaction(id, messageId, emoji, false)));
        return id;
    }

    void unreact(String messageId, String reactionId) {
        locked(() -> reactions.replaceAll(
                r -> r.reactionId().equals(reactionId) && r.messageId().equals(messageId)
                        ? new Reaction(r.reactionId(), r.messageId(), r.emojiType(), true)
                        : r));
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
