package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.ChannelHealth;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long connection ({@code mode = "websocket"}, SPEC CH-11, CH-0, IN-3): events over the platform's WebSocket, no
 * public URL needed. The URL comes from {@link LongConnectionEndpoint}; the frames are {@link Pbbp2Frame}s. A ping
 * control frame goes out every {@code PingInterval}; a {@code pong} may carry a new ClientConfig. An event (a data
 * frame, its payload split over {@code sum} frames when large) is taken by {@link EventIntake} and only then acked: the
 * frame goes back with the payload {@code {"code":200}} (up to 32 events are taken side by side, as the official SDKs
 * do, so one slow commit holds up no other ack); a store failure sends {@code {"code":500}} and the platform pushes the
 * event again (the inbox dedupes it, IN-1). A dropped connection, or one silent for three ping intervals, is opened
 * again after a random pause within {@code ReconnectNonce}; a failed open is tried again with backoff up to
 * {@code ReconnectInterval}. One thread per channel, restartable: {@link #stop} ends it.
 */
final class LongConnection {
    private static final Logger log = LoggerFactory.getLogger(LongConnection.class);
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(10);
    private static final int PARTIAL_KEPT = 64;
    /** Events taken at once on one connection. */
    private static final int HANDLERS = 32;

    private static final byte[] OK = "{\"code\":200,\"headers\":null,\"data\":null}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] RETRY =
            "{\"code\":500,\"headers\":null,\"data\":null}".getBytes(StandardCharsets.UTF_8);

    private final LarkAccount account;
    private final HttpClient http;
    private final EventIntake intake;
    private final EventCrypto crypto;
    private final Duration firstBackoff;
    private volatile boolean running = true;
    private volatile Thread thread;
    private volatile WebSocket current;
    private volatile ChannelHealth health = ChannelHealth.down("connecting");

    LongConnection(LarkAccount account, HttpClient http, EventIntake intake, Duration firstBackoff) {
        this.account = account;
        this.http = http;
        this.intake = intake;
        this.crypto = account.encryptKey() == null ? null : new EventCrypto(account.encryptKey());
        this.firstBackoff = firstBackoff;
    }

    void start() {
        thread = Thread.ofVirtual().name("lark-long-connection").start(this::run);
    }

    void stop() {
        running = false;
        WebSocket ws = current;
        if (ws != null) ws.abort();
        Thread t = thread;
        if (t != null) t.interrupt();
    }

    ChannelHealth health() {
        return health;
    }

    private void run() {
        Duration backoff = firstBackoff;
        LongConnectionEndpoint.ClientConfig config = LongConnectionEndpoint.ClientConfig.DEFAULT;
        while (running) {
            Duration pause;
            try {
                LongConnectionEndpoint endpoint = LongConnectionEndpoint.fetch(account, http);
                config = endpoint.config();
                Connection c = new Connection(endpoint);
                WebSocket ws = http.newWebSocketBuilder()
                        .connectTimeout(Duration.ofSeconds(10))
                        .buildAsync(endpoint.url(), c)
                        .get(15, TimeUnit.SECONDS);
                current = ws;
                c.socket = ws;
                health = ChannelHealth.UP;
                backoff = firstBackoff;
                log.info(
                        "lark: long connection open to {} for app {}",
                        endpoint.url().getHost(),
                        account.appId());
                ws.request(1);
                String why = c.serve();
                ws.abort();
                if (!running) return;
                health = ChannelHealth.down("long connection closed: " + why);
                long nonce = c.config.nonce().toMillis();
                pause = Duration.ofMillis(
                        nonce <= 0 ? 0 : ThreadLocalRandom.current().nextLong(nonce));
                log.warn("lark: long connection closed ({}); reconnecting in {} ms", why, pause.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (LongConnectionEndpoint.Refused e) {
                health = ChannelHealth.down("the long connection endpoint refused: " + e.getMessage());
                pause = backoff;
                log.error(
                        "lark: cannot open the long connection ({}); retrying in {} ms{}",
                        e.getMessage(),
                        pause.toMillis(),
                        e.retry
                                ? ""
                                : "; check channels.lark.app_id and app_secret, and that the app subscribes "
                                        + "events by long connection");
            } catch (Exception e) {
                health = ChannelHealth.down(
                        "long connection failed: " + e.getClass().getSimpleName());
                pause = backoff;
                log.warn(
                        "lark: long connection to {} failed ({}); retrying in {} ms",
                        account.apiBase().getHost(),
                        e.getClass().getSimpleName(),
                        pause.toMillis());
            }
            Duration doubled = backoff.multipliedBy(2);
            backoff = doubled.compareTo(config.reconnectInterval()) > 0 ? config.reconnectInterval() : doubled;
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One WebSocket: binary messages joined, frames handled in order on a worker, frames sent one at a time. */
    private final class Connection implements WebSocket.Listener {
        final CompletableFuture<String> ended = new CompletableFuture<>();
        final LinkedBlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();
        final ReentrantLock sending = new ReentrantLock();
        final ByteArrayOutputStream message = new ByteArrayOutputStream();
        final Map<String, byte[][]> partial = new LinkedHashMap<>();
        final Semaphore handlers = new Semaphore(HANDLERS);
        final int service;
        volatile LongConnectionEndpoint.ClientConfig config;
        volatile WebSocket socket;
        volatile long heardAt = System.nanoTime();

        Connection(LongConnectionEndpoint endpoint) {
            this.service = endpoint.service();
            this.config = endpoint.config();
        }

        /** Pings and handles frames until the connection ends; why it ended. */
        String serve() throws InterruptedException {
            Thread pinger = Thread.ofVirtual().name("lark-long-connection-ping").start(this::ping);
            Thread worker =
                    Thread.ofVirtual().name("lark-long-connection-events").start(this::work);
            try {
                return ended.get();
            } catch (java.util.concurrent.ExecutionException e) {
                return "failed: " + e.getCause();
            } finally {
                // stopped (interrupted) or ended: the worker and the pinger see it and finish
                ended.complete("stopped");
                pinger.interrupt();
                // the event in hand is finished (its record or its ack must not be cut off); those after it stay
                // unacked and come again
                worker.join(Duration.ofSeconds(30));
                if (handlers.tryAcquire(HANDLERS, 30, TimeUnit.SECONDS)) handlers.release(HANDLERS);
            }
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] part = new byte[data.remaining()];
            data.get(part);
            message.writeBytes(part);
            if (last) {
                frames.add(message.toByteArray());
                message.reset();
            }
            heardAt = System.nanoTime();
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
            ended.complete("closed " + status + (reason == null || reason.isEmpty() ? "" : " " + reason));
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            ended.complete("error: " + error.getClass().getSimpleName());
        }

        private void ping() {
            try {
                while (!ended.isDone()) {
                    send(Pbbp2Frame.ping(service));
                    Thread.sleep(config.pingInterval());
                    Duration silent = Duration.ofNanos(System.nanoTime() - heardAt);
                    if (silent.compareTo(config.pingInterval().multipliedBy(3)) > 0) {
                        ended.complete("nothing heard for " + silent.toSeconds() + " s");
                    }
                }
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            }
        }

        private void work() {
            try {
                while (!ended.isDone()) {
                    byte[] raw = frames.poll(200, TimeUnit.MILLISECONDS);
                    if (raw != null) handle(raw);
                }
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            }
        }

        private void handle(byte[] raw) {
            Pbbp2Frame frame;
            try {
                frame = Pbbp2Frame.decode(raw);
            } catch (IllegalArgumentException e) {
                log.warn("lark: a long connection frame that is not a pbbp2 frame was skipped: {}", e.getMessage());
                return;
            }
            if (frame.method() == Pbbp2Frame.CONTROL) {
                if ("pong".equals(frame.header("type")) && frame.payload() != null && frame.payload().length > 0) {
                    JsonNode c = parse(frame.payload());
                    if (c != null) config = config.with(c);
                }
                return;
            }
            if (frame.method() != Pbbp2Frame.DATA) return;
            long start = System.nanoTime();
            byte[] payload = combine(frame);
            if (payload == null) return;
            // events are taken side by side, as the official SDKs do, so a slow commit holds up no other ack
            try {
                handlers.acquire();
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
                return;
            }
            Thread.ofVirtual().name("lark-long-connection-event").start(() -> {
                try {
                    byte[] answer = "event".equals(frame.header("type")) ? take(frame, payload) : OK;
                    long ms = Duration.ofNanos(System.nanoTime() - start).toMillis();
                    send(frame.answer(new Pbbp2Frame.Header("biz_rt", Long.toString(ms)), answer));
                } finally {
                    handlers.release();
                }
            });
        }

        /** SPEC IN-3 after_receive_record: the ack's payload, 200 once the event is committed. */
        private byte[] take(Pbbp2Frame frame, byte[] payload) {
            JsonNode root = parse(payload);
            if (root != null && root.has("encrypt") && crypto != null) {
                String plain = crypto.decrypt(root.path("encrypt").asText(""));
                root = plain == null ? null : parse(plain.getBytes(StandardCharsets.UTF_8));
            }
            if (root == null) {
                log.warn("lark: event {} is not JSON; acked and dropped", frame.header("message_id"));
                return OK;
            }
            return switch (intake.take(root)) {
                case TAKEN -> OK;
                case RETRY, NOT_STARTED -> {
                    log.warn(
                            "lark: event {} not recorded, answered 500 for the platform to push it again",
                            root.path("header").path("event_id").asText("?"));
                    yield RETRY;
                }
            };
        }

        /** The whole payload, or null while parts of it are still to come (parts kept per message id). */
        private byte[] combine(Pbbp2Frame frame) {
            int sum = frame.intHeader("sum", 1);
            int seq = frame.intHeader("seq", 0);
            byte[] payload = frame.payload() == null ? new byte[0] : frame.payload();
            if (sum <= 1) return payload;
            if (seq < 0 || seq >= sum || sum > 1024) return null;
            String id = String.valueOf(frame.header("message_id"));
            byte[][] parts = partial.computeIfAbsent(id, k -> new byte[sum][]);
            if (parts.length != sum) return null;
            parts[seq] = payload;
            if (partial.size() > PARTIAL_KEPT)
                partial.remove(partial.keySet().iterator().next());
            ByteArrayOutputStream whole = new ByteArrayOutputStream();
            for (byte[] p : parts) {
                if (p == null) return null;
                whole.writeBytes(p);
            }
            partial.remove(id);
            return whole.toByteArray();
        }

        private void send(Pbbp2Frame frame) {
            WebSocket ws = socket;
            if (ws == null) return;
            sending.lock();
            try {
                ws.sendBinary(ByteBuffer.wrap(frame.encode()), true)
                        .get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // an ack that did not go out: the platform pushes the event again, and it dedupes (IN-1)
                ended.complete("send failed: " + e.getClass().getSimpleName());
            } finally {
                sending.unlock();
            }
        }
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            JsonNode n = LarkApi.JSON.readTree(bytes);
            return n != null && n.isObject() ? n : null;
        } catch (IOException e) {
            return null;
        }
    }
}
