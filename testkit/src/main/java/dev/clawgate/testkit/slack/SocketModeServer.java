package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.internal.SocketWriter;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.eclipse.jetty.websocket.api.Session;

/**
 * Slack's Socket Mode (docs.slack.dev/apis/events-api/using-socket-mode): {@code apps.connections.open} hands out a
 * single-use WebSocket URL; each connection is greeted with {@code hello}; events come as {@code events_api} envelopes
 * the app acknowledges by sending back their {@code envelope_id}; an envelope not acknowledged in time is sent again,
 * on any open connection, with {@code retry_attempt} and {@code retry_reason} (up to three retries, as over HTTP);
 * Slack asks the app to reconnect with a {@code disconnect} message ({@code warning}, {@code refresh_requested},
 * {@code link_disabled}) before it closes the socket. At most 10 connections per app.
 */
final class SocketModeServer {
    static final int MAX_CONNECTIONS = 10;
    private static final int MAX_RETRIES = 3;

    private static final class Conn {
        final int number;
        final SocketWriter writer;

        Conn(int number, SocketWriter writer) {
            this.number = number;
            this.writer = writer;
        }
    }

    private static final class Pending {
        final String envelopeId = UUID.randomUUID().toString();
        final ObjectNode payload;
        int attempts;
        long deadline;

        Pending(ObjectNode payload) {
            this.payload = payload;
        }
    }

    private final String appId;
    private final Consumer<PlatformCall> calls;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Boolean> tickets = new LinkedHashMap<>();
    private final Map<String, Conn> open = new LinkedHashMap<>();
    private final Map<String, Pending> unacked = new LinkedHashMap<>();
    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    private final List<SocketEnvelope> sent = new CopyOnWriteArrayList<>();
    private final List<String> gaveUp = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("fake-slack-socket-timer").factory());
    private int connectionsMade;
    private int nextConnection;
    private volatile Duration ackTimeout = EventsApiPusher.SLACK_ACK_TIMEOUT;

    SocketModeServer(String appId, Consumer<PlatformCall> calls) {
        this.appId = appId;
        this.calls = calls;
        timer.scheduleWithFixedDelay(this::redeliverLate, 25, 25, TimeUnit.MILLISECONDS);
    }

    void ackTimeout(Duration timeout) {
        this.ackTimeout = timeout;
    }

    /** A new single-use WebSocket URL, as {@code apps.connections.open} returns it. */
    String newUrl(String wsBase) {
        String ticket = UUID.randomUUID().toString();
        locked(() -> tickets.put(ticket, Boolean.TRUE));
        return wsBase + "/link/?ticket=" + ticket + "&app_id=" + appId;
    }

    /** Whether {@code ticket} was handed out and not used yet; using it spends it. */
    boolean spend(String ticket) {
        return ticket != null && locked(() -> tickets.remove(ticket) != null);
    }

    void connected(String sessionId, Session session) {
        locked(() -> {
            Conn conn = new Conn(++connectionsMade, SocketWriter.start(session, "fake-slack-socket-" + sessionId));
            open.put(sessionId, conn);
            ObjectNode hello =
                    SlackWorld.JSON.createObjectNode().put("type", "hello").put("num_connections", open.size());
            hello.putObject("debug_info")
                    .put("host", "applink-fake-" + conn.number)
                    .put("build_number", 1)
                    .put("approximate_connection_time", 18060);
            hello.putObject("connection_info").put("app_id", appId);
            conn.writer.send(hello.toString());
            if (open.size() > MAX_CONNECTIONS) {
                conn.writer.send(disconnect("too_many_websockets"));
                conn.writer.close(1000, "too many websockets");
                return null;
            }
            while (!waiting.isEmpty()) send(waiting.poll(), conn);
            return null;
        });
    }

    void closed(String sessionId) {
        locked(() -> open.remove(sessionId));
    }

    /** A frame from the app: an acknowledgement names an {@code envelope_id}. */
    void received(String text) {
        String envelopeId;
        try {
            JsonNode n = SlackWorld.JSON.readTree(text);
            envelopeId = n.path("envelope_id").asText(null);
        } catch (IOException e) {
            envelopeId = null;
        }
        String id = envelopeId;
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("envelope-id", id == null ? "" : id);
        headers.put("known", Boolean.toString(id != null && locked(() -> unacked.remove(id) != null)));
        calls.accept(new PlatformCall("socket ack", text, headers));
    }

    /** Sends {@code callback} in an envelope on an open connection, or as soon as one opens. */
    void deliver(ObjectNode callback) {
        locked(() -> {
            Pending p = new Pending(callback);
            Conn c = pick();
            if (c == null) waiting.add(p);
            else send(p, c);
            return null;
        });
    }

    /** Sends {@code disconnect} with {@code reason} on every connection, then closes them after {@code closeAfter}. */
    void disconnectAll(String reason, Duration closeAfter) {
        List<Conn> conns = locked(() -> List.copyOf(open.values()));
        for (Conn c : conns) c.writer.send(disconnect(reason));
        timer.schedule(
                () -> conns.forEach(c -> c.writer.close(1000, reason)), closeAfter.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Drops every connection's TCP stream without a close frame. */
    void dropAll() {
        locked(() -> List.copyOf(open.values())).forEach(c -> c.writer.drop());
    }

    int openConnections() {
        return locked(open::size);
    }

    int unacknowledged() {
        return locked(() -> unacked.size() + waiting.size());
    }

    List<SocketEnvelope> sent() {
        return List.copyOf(sent);
    }

    /** Envelope ids dropped after the last retry went unacknowledged. */
    List<String> gaveUp() {
        return List.copyOf(gaveUp);
    }

    void close() {
        timer.shutdownNow();
        locked(() -> List.copyOf(open.values())).forEach(c -> c.writer.close(1001, "server stopping"));
    }

    private String disconnect(String reason) {
        ObjectNode d =
                SlackWorld.JSON.createObjectNode().put("type", "disconnect").put("reason", reason);
        d.putObject("debug_info").put("host", "applink-fake");
        return d.toString();
    }

    /** Round robin over open connections, as Slack spreads envelopes over an app's sockets. */
    private Conn pick() {
        List<Conn> live = open.values().stream().filter(c -> c.writer.isOpen()).toList();
        if (live.isEmpty()) return null;
        return live.get(Math.floorMod(nextConnection++, live.size()));
    }

    private void send(Pending p, Conn c) {
        ObjectNode env = SlackWorld.JSON.createObjectNode().put("envelope_id", p.envelopeId);
        env.set("payload", p.payload);
        env.put("type", "events_api")
                .put("accepts_response_payload", false)
                .put("retry_attempt", p.attempts)
                .put("retry_reason", p.attempts == 0 ? "" : "timeout");
        p.deadline = System.nanoTime() + ackTimeout.toNanos();
        unacked.put(p.envelopeId, p);
        c.writer.send(env.toString());
        String eventId = p.payload.path("event_id").asText(null);
        sent.add(new SocketEnvelope(p.envelopeId, eventId, p.attempts, c.number, Instant.now()));
        p.attempts++;
    }

    private void redeliverLate() {
        locked(() -> {
            long now = System.nanoTime();
            for (Pending p : List.copyOf(unacked.values())) {
                if (now - p.deadline < 0) continue;
                unacked.remove(p.envelopeId);
                if (p.attempts > MAX_RETRIES) {
                    gaveUp.add(p.envelopeId);
                    continue;
                }
                Conn c = pick();
                if (c == null) waiting.add(p);
                else send(p, c);
            }
            return null;
        });
    }

    @FunctionalInterface
    private interface Locked<T> {
        T get();
    }

    private <T> T locked(Locked<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }
}
