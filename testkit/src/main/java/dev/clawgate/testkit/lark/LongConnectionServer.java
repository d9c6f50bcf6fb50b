package dev.clawgate.testkit.lark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.internal.SocketWriter;
import io.javalin.Javalin;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.websocket.api.Session;

/**
 * The long connection as the platform serves it (the official SDKs' protocol): {@code POST /callback/ws/endpoint} with
 * {@code {"AppID", "AppSecret"}} hands out a single-use {@code ws://} URL (its query naming {@code device_id},
 * {@code service_id}, an {@code access_key} and a {@code ticket}) and the {@code ClientConfig}; on the socket every
 * message is a binary pbbp2 frame ({@link LarkFrames}). The client pings (a control frame, {@code type: ping}) and is
 * answered {@code pong} carrying the ClientConfig. An event goes out as a data frame ({@code type: event},
 * {@code message_id}, {@code sum}, {@code seq}, {@code trace_id}; split over {@code sum} frames when {@link #parts} is
 * above 1) and is done when the client sends the frame back with the payload {@code {"code":200}}. An event not acked
 * within {@link #ackTimeout} (the platform's 3 s), acked with another code, or in flight on a connection that drops is
 * pushed again on an open connection, at most the pusher's retry count. Logged calls: {@code ws.endpoint},
 * {@code ws.connect}, {@code ws.ping}, {@code ws.ack} (headers {@code delivery-id}, {@code code}).
 */
final class LongConnectionServer {
    static final String PATH = "/ws/v2";

    private static final class Conn {
        final String sessionId;
        final SocketWriter writer;

        Conn(String sessionId, SocketWriter writer) {
            this.sessionId = sessionId;
            this.writer = writer;
        }
    }

    private static final class Pending {
        final String id;
        long dueNanos;
        String on;

        Pending(String id) {
            this.id = id;
        }
    }

    private final String appId;
    private final String appSecret;
    private final LarkDeliveries deliveries;
    private final Consumer<PlatformCall> calls;
    private final IntSupplier maxAttempts;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Boolean> tickets = new LinkedHashMap<>();
    private final Map<String, Conn> open = new LinkedHashMap<>();
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private final AtomicLong seq = new AtomicLong();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("fake-lark-ws-timer").factory());
    private final int service = 7000 + (int) (System.nanoTime() % 1000);
    private final Javalin app;
    private int opened;
    private int next;
    volatile int pingInterval = 30;
    volatile int reconnectInterval = 2;
    volatile int reconnectNonce = 0;
    volatile Duration ackTimeout = Duration.ofSeconds(3);
    volatile int parts = 1;

    LongConnectionServer(
            String appId,
            String appSecret,
            LarkDeliveries deliveries,
            Consumer<PlatformCall> calls,
            IntSupplier maxAttempts) {
        this.appId = appId;
        this.appSecret = appSecret;
        this.deliveries = deliveries;
        this.calls = calls;
        this.maxAttempts = maxAttempts;
        app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.concurrency.useVirtualThreads = true;
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.jetty.modifyWebSocketServletFactory(f -> f.setIdleTimeout(Duration.ofMinutes(10)));
            config.routes.wsBeforeUpgrade(PATH, ctx -> {
                // each URL from the endpoint opens one connection
                if (!spend(ctx.queryParam("ticket"))) throw new HttpResponseException(403, "invalid ticket");
            });
            config.routes.ws(PATH, ws -> {
                ws.onConnect(ctx -> connected(ctx.sessionId(), ctx.session));
                ws.onBinaryMessage(ctx -> received(ctx.sessionId(), ctx.data()));
                ws.onClose(ctx -> closed(ctx.sessionId()));
                ws.onError(ctx -> closed(ctx.sessionId()));
            });
        });
        app.start();
        timer.scheduleWithFixedDelay(this::pushDue, 20, 20, TimeUnit.MILLISECONDS);
    }

    /** The endpoint's answer to {@code body} (the request's JSON): a new URL and the ClientConfig, or a refusal. */
    ObjectNode endpoint(JsonNode body) {
        ObjectNode r = LarkEvents.JSON.createObjectNode();
        if (body == null
                || !appId.equals(body.path("AppID").asText())
                || !appSecret.equals(body.path("AppSecret").asText())) {
            return r.put("code", 403).put("msg", "forbidden: AppID or AppSecret invalid");
        }
        String ticket = UUID.randomUUID().toString();
        locked(() -> tickets.put(ticket, Boolean.TRUE));
        String url = "ws://127.0.0.1:" + app.port() + PATH + "?fpid=493&aid=552564&device_id=" + seq.incrementAndGet()
                + "&access_key=" + UUID.randomUUID().toString().replace("-", "") + "&service_id=" + service
                + "&ticket=" + ticket;
        ObjectNode data = r.put("code", 0).put("msg", "ok").putObject("data").put("URL", url);
        data.set("ClientConfig", clientConfig());
        return r;
    }

    /** Pushes delivery {@code id} on an open connection now, or as soon as one opens. */
    void deliver(String id) {
        locked(() -> pending.computeIfAbsent(id, Pending::new).dueNanos = System.nanoTime());
    }

    /** Drops every connection's TCP stream without a close frame. */
    void dropAll() {
        locked(() -> List.copyOf(open.values())).forEach(c -> c.writer.drop());
    }

    int connectionsOpened() {
        return locked(() -> opened);
    }

    int openConnections() {
        return locked(open::size);
    }

    void close() {
        timer.shutdownNow();
        locked(() -> List.copyOf(open.values())).forEach(c -> c.writer.close(1001, "server stopping"));
        app.stop();
    }

    private ObjectNode clientConfig() {
        return LarkEvents.JSON
                .createObjectNode()
                .put("ReconnectCount", -1)
                .put("ReconnectInterval", reconnectInterval)
                .put("ReconnectNonce", reconnectNonce)
                .put("PingInterval", pingInterval);
    }

    private boolean spend(String ticket) {
        return ticket != null && locked(() -> tickets.remove(ticket) != null);
    }

    private void connected(String sessionId, Session session) {
        locked(() -> {
            opened++;
            open.put(sessionId, new Conn(sessionId, SocketWriter.start(session, "fake-lark-ws-" + sessionId)));
        });
        calls.accept(new PlatformCall("ws.connect", "", Map.of("session", sessionId)));
    }

    private void closed(String sessionId) {
        locked(() -> {
            open.remove(sessionId);
            long now = System.nanoTime();
            // what was in flight there is pushed again on the next connection
            for (Pending p : pending.values()) {
                if (sessionId.equals(p.on)) {
                    p.on = null;
                    p.dueNanos = now;
                }
            }
        });
    }

    private void received(String sessionId, ByteBuffer data) {
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        LarkFrames.Frame f;
        try {
            f = LarkFrames.decode(bytes);
        } catch (InvalidProtocolBufferException e) {
            calls.accept(new PlatformCall("ws.bad_frame", e.getMessage(), Map.of("session", sessionId)));
            return;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        f.headers().forEach(h -> headers.put(h[0], h[1]));
        headers.put(":service", Integer.toString(f.service()));
        if (f.method() == LarkFrames.CONTROL && "ping".equals(f.header("type"))) {
            calls.accept(new PlatformCall("ws.ping", "", headers));
            LarkFrames.Frame pong = new LarkFrames.Frame(
                    0,
                    0,
                    service,
                    LarkFrames.CONTROL,
                    List.<String[]>of(new String[] {"type", "pong"}),
                    clientConfig().toString().getBytes(StandardCharsets.UTF_8));
            Conn c = locked(() -> open.get(sessionId));
            if (c != null) c.writer.sendBinary(LarkFrames.encode(pong));
            return;
        }
        if (f.method() != LarkFrames.DATA) return;
        String id = f.header("message_id");
        int code = -1;
        try {
            JsonNode answer = LarkEvents.JSON.readTree(f.payload() == null ? new byte[0] : f.payload());
            if (answer != null) code = answer.path("code").asInt(-1);
        } catch (IOException e) {
            code = -1;
        }
        String body = f.payload() == null ? "" : new String(f.payload(), StandardCharsets.UTF_8);
        headers.put("delivery-id", String.valueOf(id));
        headers.put("code", Integer.toString(code));
        calls.accept(new PlatformCall("ws.ack", body, headers));
        int answered = code;
        locked(() -> {
            Pending p = pending.get(id);
            if (p == null) return;
            if (answered == 200) {
                pending.remove(id);
                deliveries.accepted(id);
            } else {
                p.on = null;
                p.dueNanos = System.nanoTime() + Duration.ofMillis(50).toNanos();
            }
        });
    }

    /** Pushes every event that is due on an open connection, round robin. */
    private void pushDue() {
        List<Runnable> sends = new ArrayList<>();
        locked(() -> {
            List<Conn> live =
                    open.values().stream().filter(c -> c.writer.isOpen()).toList();
            if (live.isEmpty()) return;
            long now = System.nanoTime();
            for (Pending p : List.copyOf(pending.values())) {
                if (p.dueNanos > now) continue;
                if (deliveries.attempts(p.id) >= maxAttempts.getAsInt()) {
                    pending.remove(p.id);
                    continue;
                }
                Conn c = live.get(Math.floorMod(next++, live.size()));
                p.on = c.sessionId;
                p.dueNanos = now + ackTimeout.toNanos();
                deliveries.attempted(p.id);
                byte[] payload = deliveries.json(p.id).getBytes(StandardCharsets.UTF_8);
                sends.add(() -> frames(p.id, payload).forEach(c.writer::sendBinary));
            }
        });
        sends.forEach(Runnable::run);
    }

    private List<byte[]> frames(String id, byte[] payload) {
        int n = Math.max(1, Math.min(parts, payload.length));
        String trace = UUID.randomUUID().toString();
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int from = payload.length * i / n;
            int to = payload.length * (i + 1) / n;
            byte[] part = java.util.Arrays.copyOfRange(payload, from, to);
            List<String[]> headers = List.of(
                    new String[] {"type", "event"},
                    new String[] {"message_id", id},
                    new String[] {"sum", Integer.toString(n)},
                    new String[] {"seq", Integer.toString(i)},
                    new String[] {"trace_id", trace});
            out.add(LarkFrames.encode(new LarkFrames.Frame(
                    seq.incrementAndGet(), System.nanoTime(), service, LarkFrames.DATA, headers, part)));
        }
        return out;
    }

    private void locked(Runnable r) {
        locked(() -> {
            r.run();
            return null;
        });
    }

    private <T> T locked(Supplier<T> s) {
        lock.lock();
        try {
            return s.get();
        } finally {
            lock.unlock();
        }
    }
}
