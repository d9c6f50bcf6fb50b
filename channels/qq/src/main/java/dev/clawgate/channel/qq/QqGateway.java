package dev.clawgate.channel.qq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.socket.GatewaySocket;
import dev.clawgate.core.channel.socket.SessionFile;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The QQ bot gateway over WebSocket (SPEC CH-13, CH-0, IN-1, IN-4): op 10 Hello, then op 2 Identify ({@code token}
 * {@code QQBot <access token>}, intents {@code GROUP_AND_C2C_EVENT}, shard {@code [0, 1]}) or op 6 Resume
 * ({@code session_id} and the last sequence handled); op 1 heartbeats at Hello's interval carrying the last sequence,
 * each answered op 11 (one unanswered by the next beat marks a zombie, closed and resumed); op 7 Reconnect resumes; op
 * 9 Invalid Session identifies anew. Closes 4006, 4007, 4009 (session, seq, timeout) start a new session; 4004 (token)
 * fetches a new access token first; 4914 and 4915 (the bot is offline or banned) are fatal: health says so.
 *
 * <p>Dispatches are handled in order on this loop's thread; the sequence advances only once a dispatch was handled (its
 * message committed to the inbox), so it is the receive position: a store failure drops the connection and the Resume
 * replays from the last message recorded (SPEC IN-3 after_receive_record).
 */
final class QqGateway {
    private static final Logger log = LoggerFactory.getLogger(QqGateway.class);
    /** Intents: group @-messages and direct (C2C) messages. */
    static final int GROUP_AND_C2C_EVENT = 1 << 25;

    /** Heartbeat op 1, answered by op 11. */
    static final GatewaySocket.HeartbeatOps HEARTBEAT = new GatewaySocket.HeartbeatOps(1, 11);

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    /** Takes each dispatch; throws to leave it unhandled (the connection is dropped and the Resume replays it). */
    interface Dispatches {
        void handle(String type, JsonNode payload) throws Exception;
    }

    /** How the loop is timed; tests shorten it. */
    record Timing(Duration firstBackoff, Duration readyTimeout) {
        static final Timing QQ = new Timing(Duration.ofSeconds(1), Duration.ofSeconds(30));
    }

    private final QqAccount account;
    private final QqApi api;
    private final Dispatches dispatches;
    private final Timing timing;
    private final SessionFile kept;
    private volatile boolean running;
    private volatile Thread thread;
    private volatile GatewaySocket current;
    private volatile ChannelHealth health = ChannelHealth.down("connecting to the QQ gateway");
    private volatile int connections;
    private volatile String sessionId;
    private volatile String sessionUrl;
    private volatile long seq;
    private volatile boolean renewToken;

    QqGateway(QqAccount account, QqApi api, Dispatches dispatches, Timing timing, SessionFile kept) {
        this.account = account;
        this.api = api;
        this.dispatches = dispatches;
        this.timing = timing;
        this.kept = kept;
        SessionFile.Session s = kept == null ? null : kept.read();
        if (s != null) {
            sessionId = s.id();
            sessionUrl = s.resumeUrl();
            seq = s.seq();
        }
    }

    void start() {
        running = true;
        thread = Thread.ofVirtual().name("qq-gateway").start(this::run);
    }

    /** Stops: the socket is closed with 4000, so the session stays resumable for the next start. */
    void stop() {
        running = false;
        GatewaySocket.stopLoop(current, thread);
    }

    ChannelHealth health() {
        return health;
    }

    int connections() {
        return connections;
    }

    private void keep() {
        if (kept != null)
            kept.write(
                    sessionId == null || sessionUrl == null
                            ? null
                            : new SessionFile.Session(sessionId, sessionUrl, seq));
    }

    private void forget() {
        sessionId = null;
        seq = 0;
        keep();
    }

    private void run() {
        Duration backoff = timing.firstBackoff();
        while (running) {
            String why;
            boolean healthy = false;
            try {
                boolean resuming = sessionId != null && sessionUrl != null;
                URI url = resuming ? URI.create(sessionUrl) : gatewayUrl();
                GatewaySocket c = new GatewaySocket(api.http(), url, CONNECT_TIMEOUT, HEARTBEAT, s -> s);
                current = c;
                connections++;
                Outcome o = serve(c, url, resuming);
                c.close(4000, "reconnecting");
                current = null;
                if (!running) return;
                why = o.why();
                healthy = o.healthy();
                if (o.fatal()) {
                    health = ChannelHealth.down(why);
                    log.error("qq: {}", why);
                    running = false;
                    return;
                }
                if (o.now()) {
                    log.info("qq: {}; reconnecting now", why);
                    backoff = timing.firstBackoff();
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            } catch (QqApiException e) {
                why = "the gateway URL or token could not be had: " + e.getMessage();
            } catch (IOException | RuntimeException e) {
                why = "gateway connection failed: " + e;
            }
            if (healthy) backoff = timing.firstBackoff();
            health = ChannelHealth.down(why);
            log.warn("qq: {}; reconnecting in {} ms", why, backoff.toMillis());
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    /** How a connection ended: why, whether to reconnect at once, whether it had been ready, whether fatal. */
    private record Outcome(String why, boolean now, boolean healthy, boolean fatal) {}

    private Outcome serve(GatewaySocket c, URI url, boolean resuming) throws InterruptedException, QqApiException {
        GatewaySocket.Frame hello = c.next(timing.readyTimeout());
        if (hello == null) return new Outcome("stuck: no Hello", false, false, false);
        if (hello.closeCode() != 0) return closed(hello.closeCode(), hello.reason(), false);
        if (hello.op() != 10) return new Outcome("the gateway did not begin with Hello", false, false, false);
        long interval = hello.json().path("d").path("heartbeat_interval").asLong(41_250);
        Thread heart = Thread.ofVirtual().name("qq-heartbeat").start(() -> heartbeat(c, interval));
        try {
            String token = "QQBot " + api.token(renewToken);
            renewToken = false;
            ObjectNode d = QqApi.JSON.createObjectNode().put("token", token);
            if (resuming) {
                c.send(6, d.put("session_id", sessionId).put("seq", seq));
            } else {
                d.put("intents", GROUP_AND_C2C_EVENT);
                d.putArray("shard").add(0).add(1);
                d.putObject("properties")
                        .put("$os", "linux")
                        .put("$browser", "clawgate")
                        .put("$device", "clawgate");
                c.send(2, d);
            }
            long deadline = System.nanoTime() + timing.readyTimeout().toNanos();
            boolean ready = false;
            while (running) {
                Duration left = ready ? Duration.ofSeconds(1) : Duration.ofNanos(deadline - System.nanoTime());
                if (!ready && left.isNegative()) return new Outcome("stuck: no READY/RESUMED", false, false, false);
                GatewaySocket.Frame f = c.next(left);
                if (c.zombie()) return new Outcome("no heartbeat ACK: a zombied connection", true, ready, false);
                if (f == null) continue;
                if (f.closeCode() != 0) return closed(f.closeCode(), f.reason(), ready);
                JsonNode p = f.json();
                switch (f.op()) {
                    case 0 -> {
                        String type = p.path("t").asText("");
                        long s = p.path("s").asLong(seq);
                        if (type.equals("READY")) {
                            sessionId = p.path("d").path("session_id").asText(null);
                            sessionUrl = url.toString();
                            ready = true;
                            health = ChannelHealth.UP;
                            log.info(
                                    "qq: connected as {}",
                                    p.path("d").path("user").path("username").asText("?"));
                        } else if (type.equals("RESUMED")) {
                            ready = true;
                            health = ChannelHealth.UP;
                            log.info("qq: session resumed from sequence {}", seq);
                        } else {
                            try {
                                dispatches.handle(type, p);
                            } catch (Exception e) {
                                return new Outcome(
                                        "dispatch " + s + " (" + type + ") not recorded, to be replayed: " + e,
                                        false,
                                        ready,
                                        false);
                            }
                        }
                        seq = Math.max(seq, s);
                        keep();
                    }
                    case 7 -> {
                        return new Outcome("QQ asked to reconnect (op 7)", true, ready, false);
                    }
                    case 9 -> {
                        forget();
                        Thread.sleep(ThreadLocalRandom.current().nextLong(1000, 3000));
                        return new Outcome("invalid session (op 9): identifying anew", true, ready, false);
                    }
                    default -> {}
                }
            }
            return new Outcome("stopped", true, ready, false);
        } finally {
            heart.interrupt();
        }
    }

    private void heartbeat(GatewaySocket c, long interval) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(interval);
                if (!c.acked()) {
                    c.markZombie();
                    return;
                }
                if (!c.heartbeatNow(seq)) return;
            }
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        }
    }

    private Outcome closed(int code, String reason, boolean ready) {
        String r = reason == null || reason.isBlank() ? "" : " " + reason;
        return switch (code) {
            case 4914, 4915 ->
                new Outcome(
                        "QQ closed the gateway with " + code + r + ": the bot is offline (sandbox only) or banned; "
                                + "see the bot's state on q.qq.com",
                        false,
                        ready,
                        true);
            case 4004 -> {
                renewToken = true;
                yield new Outcome("QQ refused the token (4004); fetching a new one", true, ready, false);
            }
            case 4006, 4007, 4009 -> {
                forget();
                yield new Outcome("QQ ended the session (" + code + r + "); identifying anew", true, ready, false);
            }
            default -> new Outcome("the gateway closed the connection (" + code + r + ")", ready, ready, false);
        };
    }

    private URI gatewayUrl() throws QqApiException {
        if (account.gatewayUrl() != null) return account.gatewayUrl();
        String url = api.call("GET", "/gateway", null, dev.clawgate.core.run.CancelToken.none())
                .path("url")
                .asText("");
        if (url.isEmpty()) throw new QqApiException("GET /gateway named no url", QqApiException.Reach.ANSWERED, 200, 0);
        return URI.create(url);
    }
}
