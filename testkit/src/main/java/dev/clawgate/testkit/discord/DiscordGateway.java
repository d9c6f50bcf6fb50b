package dev.clawgate.testkit.discord;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.discord.GatewaySession.Link;
import dev.clawgate.testkit.internal.SocketWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.jetty.websocket.api.Session;

/**
 * The Gateway over WebSocket with JSON encoding, as developers/events/gateway ("Connection Lifecycle", "Sending
 * Heartbeats", "Identifying", "Resuming", "Disconnecting", "Rate Limiting") and
 * developers/topics/opcodes-and-status-codes ("Gateway Opcodes", "Gateway Close Event Codes") describe it. Faults
 * (dropped sockets, zombie connections, Reconnect, Invalid Session, a late READY) are set by {@link FakeDiscord}.
 */
final class DiscordGateway {
    static final Duration DISCORD_HEARTBEAT_INTERVAL = Duration.ofMillis(41_250);
    /** "Event payloads ... must not exceed 4096 bytes" (Sending Events); more is close 4002. */
    private static final int MAX_PAYLOAD_BYTES = 4096;
    /** "120 gateway events per connection every 60 seconds" (Rate Limiting); more is close 4008. */
    private static final int SEND_LIMIT = 120;

    private static final Set<Integer> SESSION_ENDING = Set.of(4004, 4007, 4009, 4010, 4011, 4012, 4013, 4014);

    private final ReentrantLock lock;
    private final DiscordWorld world;
    private final Supplier<String> token;
    private final Supplier<String> resumeUrl;
    private final Consumer<PlatformCall> log;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("fake-discord-gateway-timer").factory());
    private final Map<String, Link> links = new LinkedHashMap<>();
    private final List<Link> allLinks = new ArrayList<>();
    private final Map<String, GatewaySession> sessions = new LinkedHashMap<>();
    private final List<GatewayFrame> frames = new CopyOnWriteArrayList<>();
    private Duration heartbeatInterval = DISCORD_HEARTBEAT_INTERVAL;
    private boolean enforceHeartbeats = true;
    private Duration identifyWindow = Duration.ofSeconds(5);
    private Duration sessionTimeout = Duration.ofMinutes(3);
    private Duration nextReadyDelay = Duration.ZERO;
    private long lastIdentify;
    private int identifies;

    DiscordGateway(
            ReentrantLock lock,
            DiscordWorld world,
            Supplier<String> token,
            Supplier<String> resumeUrl,
            Consumer<PlatformCall> log) {
        this.lock = lock;
        this.world = world;
        this.token = token;
        this.resumeUrl = resumeUrl;
        this.log = log;
        timer.scheduleWithFixedDelay(this::watchHeartbeats, 100, 100, TimeUnit.MILLISECONDS);
    }

    // ---- settings, set under the fake's lock ------------------------------------------------

    void heartbeatInterval(Duration d) {
        heartbeatInterval = d;
    }

    void enforceHeartbeats(boolean on) {
        enforceHeartbeats = on;
    }

    /** One Identify per window ({@code max_concurrency} 1 "per 5 seconds"); a faster one gets Invalid Session. */
    void identifyWindow(Duration d) {
        identifyWindow = d;
    }

    /** How long a session outlives its connection ("timeout after a few minutes"). */
    void sessionTimeout(Duration d) {
        sessionTimeout = d;
    }

    void delayNextReady(Duration d) {
        nextReadyDelay = d;
    }

    int identifies() {
        return identifies;
    }

    // ---- the socket ---------------------------------------------------------------------------

    void connected(String socketId, Session socket, String path, String query, Map<String, List<String>> params) {
        Link link = new Link(
                allLinks.size() + 1,
                path,
                query == null ? "" : query,
                SocketWriter.start(socket, "fake-discord-gateway-" + (allLinks.size() + 1)));
        links.put(socketId, link);
        allLinks.add(link);
        GatewayRules.Refusal refused = GatewayRules.connect(params);
        if (refused != null) {
            close(link, refused.code(), refused.reason());
            return;
        }
        ObjectNode hello = op(10);
        hello.putObject("d").put("heartbeat_interval", heartbeatInterval.toMillis());
        link.writer.send(hello.toString());
    }

    void closed(String socketId, int status) {
        Link link = links.remove(socketId);
        if (link == null) return;
        if (!link.closedByServer) {
            link.closedByClient = status != 1006;
            link.closeCode = status;
        }
        GatewaySession s = link.session;
        if (s == null || s.link != link) return;
        s.link = null;
        s.detachedAt = System.nanoTime();
        // "When you close the connection ... with close code 1000 or 1001, your session will be invalidated"
        if (link.closedByClient && (status == 1000 || status == 1001)) s.invalid = true;
    }

    void received(String socketId, String text) {
        Link link = links.get(socketId);
        if (link == null || link.closedByServer) return;
        long now = System.nanoTime();
        link.received.addLast(now);
        while (now - link.received.peekFirst() > TimeUnit.SECONDS.toNanos(60)) link.received.pollFirst();
        if (link.received.size() > SEND_LIMIT) {
            close(link, 4008, "Rate limited.");
            return;
        }
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_PAYLOAD_BYTES) {
            close(link, 4002, "Decode error: payload over 4096 bytes");
            return;
        }
        JsonNode p;
        try {
            p = DiscordWorld.JSON.readTree(text);
        } catch (IOException e) {
            close(link, 4002, "Decode error");
            return;
        }
        if (p == null || !p.path("op").isInt()) {
            close(link, 4002, "Decode error");
            return;
        }
        int op = p.get("op").asInt();
        record(link, op, p);
        switch (op) {
            case 1 -> heartbeat(link);
            case 2 -> identify(link, p.path("d"));
            case 6 -> resume(link, p.path("d"));
            case 3, 4, 8, 31 -> {
                if (!link.identified) close(link, 4003, "Not authenticated.");
            }
            default -> close(link, 4001, "Unknown opcode.");
        }
    }

    private void heartbeat(Link link) {
        link.lastHeartbeat = System.nanoTime();
        if (!link.zombie) link.writer.send(op(11).toString());
    }

    private void identify(Link link, JsonNode d) {
        if (link.identified) {
            close(link, 4005, "Already authenticated.");
            return;
        }
        GatewayRules.Refusal refused = GatewayRules.identify(d, token.get(), world.applicationFlags);
        if (refused != null) {
            close(link, refused.code(), refused.reason());
            return;
        }
        int intents = d.get("intents").asInt();
        JsonNode shard = d.path("shard");
        long now = System.nanoTime();
        if (identifies > 0 && now - lastIdentify < identifyWindow.toNanos()) {
            // over max_concurrency: "Discord will respond with a Invalid Session (opcode 9) event"
            link.writer.send(op(9).put("d", false).toString());
            return;
        }
        identifies++;
        lastIdentify = now;
        link.identified = true;
        JsonNode shardArray = shard.isArray() ? shard : null;
        Duration delay = nextReadyDelay;
        nextReadyDelay = Duration.ZERO;
        if (delay.isZero()) ready(link, intents, shardArray);
        else timer.schedule(() -> locked(() -> ready(link, intents, shardArray)), delay.toMillis(), MILLISECONDS);
    }

    /** READY, then GUILD_CREATE per guild for a session with GUILDS (gateway, "Ready event", "Guild Availability"). */
    private void ready(Link link, int intents, JsonNode shard) {
        if (link.closedByServer || link.closedByClient || !links.containsValue(link)) return;
        byte[] id = new byte[16];
        ThreadLocalRandom.current().nextBytes(id);
        GatewaySession s = new GatewaySession(HexFormat.of().formatHex(id), intents);
        sessions.put(s.id, s);
        s.link = link;
        link.session = s;
        s.dispatch("READY", world.readyJson(s.id, resumeUrl.get(), shard));
        if ((intents & GatewayIntents.GUILDS) == 0) return;
        world.guilds.values().forEach(g -> s.dispatch("GUILD_CREATE", world.guildCreate(g)));
    }

    private void resume(Link link, JsonNode d) {
        if (link.identified) {
            close(link, 4005, "Already authenticated.");
            return;
        }
        if (!d.path("token").asText().equals(token.get())) {
            close(link, 4004, "Authentication failed.");
            return;
        }
        GatewaySession s = sessions.get(d.path("session_id").asText());
        long seq = d.path("seq").asLong(-1);
        boolean expired = s != null && s.link == null && System.nanoTime() - s.detachedAt > sessionTimeout.toNanos();
        if (s == null || s.invalid || expired) {
            // "It's possible your app won't reconnect in time to Resume, in which case it will receive an
            // Invalid Session"
            if (s != null) s.invalid = true;
            link.writer.send(op(9).put("d", false).toString());
            return;
        }
        if (seq < 0 || seq > s.seq) {
            close(link, 4007, "Invalid seq.");
            return;
        }
        if (!s.canReplayFrom(seq)) {
            link.writer.send(op(9).put("d", false).toString());
            return;
        }
        if (s.link != null && s.link != link) {
            s.link.closedByServer = true;
            s.link.writer.drop();
        }
        s.link = link;
        link.session = s;
        link.identified = true;
        s.after(seq).forEach(link.writer::send);
        s.dispatchOnce("RESUMED", DiscordWorld.JSON.createObjectNode());
    }

    /**
     * Sends a dispatch to every live session whose intents include one of {@code intents} (0: every session).
     * {@code payload} gets true when the session must not see message content: it lacks MESSAGE_CONTENT and
     * {@code contentPublic} is false.
     */
    void dispatch(String type, int intents, boolean contentPublic, Function<Boolean, ObjectNode> payload) {
        for (GatewaySession s : sessions.values()) {
            if (s.invalid || (intents != 0 && (s.intents & intents) == 0)) continue;
            boolean strip = !contentPublic && (s.intents & GatewayIntents.MESSAGE_CONTENT) == 0;
            s.dispatch(type, payload.apply(strip));
        }
    }

    // ---- faults -------------------------------------------------------------------------------

    void dropAll() {
        for (Link l : List.copyOf(links.values())) l.writer.drop();
    }

    void zombifyAll() {
        links.values().forEach(l -> l.zombie = true);
    }

    /** Reconnect (op 7): "You should attempt to reconnect and resume immediately"; nothing more is dispatched here. */
    void reconnectAll() {
        for (Link l : links.values()) {
            l.paused = true;
            l.writer.send(op(7).toString());
        }
    }

    /** Invalid Session (op 9) with {@code d}; a non-resumable one ends the session. */
    void invalidateAll(boolean resumable) {
        for (Link l : links.values()) {
            if (l.session == null) continue;
            l.paused = true;
            if (!resumable) l.session.invalid = true;
            l.writer.send(op(9).put("d", resumable).toString());
        }
    }

    void requestHeartbeats() {
        links.values().forEach(l -> l.writer.send(op(1).toString()));
    }

    void closeAll(int code, String reason) {
        List.copyOf(links.values()).forEach(l -> close(l, code, reason));
    }

    void expireSessions() {
        sessions.values().stream().filter(s -> s.link == null).forEach(s -> s.invalid = true);
    }

    // ---- what happened ------------------------------------------------------------------------

    List<GatewayFrame> frames() {
        return List.copyOf(frames);
    }

    List<GatewayConnection> connections() {
        return allLinks.stream()
                .map(l -> new GatewayConnection(l.number, l.path, l.query, l.closeCode, l.closedByClient))
                .toList();
    }

    int liveSessions() {
        return (int) sessions.values().stream().filter(s -> !s.invalid).count();
    }

    void close() {
        timer.shutdownNow();
        List.copyOf(links.values()).forEach(l -> l.writer.close(1001, "server stopping"));
    }

    private void close(Link link, int code, String reason) {
        link.closedByServer = true;
        link.closeCode = code;
        link.writer.close(code, reason);
        if (link.session != null && SESSION_ENDING.contains(code)) link.session.invalid = true;
    }

    /**
     * "If your app fails to send a heartbeat event in time, your connection will be closed and you will be forced to
     * Resume" (Heartbeat Interval). The reference names no close code for it; the fake uses 4000 (reconnect allowed)
     * and keeps the session resumable. "In time" here is the interval plus a quarter of it (at least a second) for the
     * app's own timing.
     */
    private void watchHeartbeats() {
        locked(() -> {
            if (!enforceHeartbeats) return;
            long grace = Math.max(heartbeatInterval.toNanos() / 4, TimeUnit.SECONDS.toNanos(1));
            long now = System.nanoTime();
            for (Link l : List.copyOf(links.values())) {
                if (!l.closedByServer && now - l.lastHeartbeat > heartbeatInterval.toNanos() + grace) {
                    close(l, 4000, "No heartbeat in time");
                }
            }
        });
    }

    /** Logs what the app sent, its token replaced by whether it was the right one. */
    private void record(Link link, int op, JsonNode payload) {
        JsonNode copy = payload.deepCopy();
        JsonNode d = copy.path("d");
        if (d instanceof ObjectNode o && d.has("token")) {
            o.put("token", d.get("token").asText().equals(token.get()) ? "<bot token>" : "<wrong token>");
        }
        frames.add(new GatewayFrame(link.number, op, copy.toString()));
        Map<String, String> headers = Map.of(":connection", Integer.toString(link.number));
        log.accept(new PlatformCall("GATEWAY " + GatewayFrame.opName(op), copy.toString(), headers));
    }

    private static ObjectNode op(int op) {
        return DiscordWorld.JSON
                .createObjectNode()
                .put("op", op)
                .putNull("d")
                .putNull("s")
                .putNull("t");
    }

    private void locked(Runnable r) {
        lock.lock();
        try {
            r.run();
        } finally {
            lock.unlock();
        }
    }
}
