package dev.clawgate.testkit.qq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.internal.SocketWriter;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.eclipse.jetty.websocket.api.Session;

/**
 * The bot gateway over WebSocket, as the QQ bot docs ("WebSocket 方式", opcodes and close codes) describe it: op 10 Hello
 * at once; op 2 Identify ({@code token} {@code QQBot <access token>}, intents, shard) answered by a READY dispatch, or
 * close 4004 for a bad token and 4013 for intents without {@code GROUP_AND_C2C_EVENT}; op 6 Resume ({@code session_id},
 * {@code seq}) replays every dispatch after {@code seq} and then RESUMED, or op 9 for a session it does not know; op 1
 * heartbeat answered op 11. Dispatches ({@code op 0}, with {@code s}, {@code t}, {@code id}, {@code d}) go to the live
 * connection; with none, they wait in the session and come with its Resume. Called under the fake's lock.
 */
final class QqFakeGateway {
    static final ObjectMapper JSON = new ObjectMapper();
    static final int GROUP_AND_C2C_EVENT = 1 << 25;
    private static final int KEPT = 10_000;

    private record Frame(long seq, String text) {}

    private static final class GwSession {
        final String id = UUID.randomUUID().toString();
        long seq;
        final ArrayDeque<Frame> frames = new ArrayDeque<>();
        String liveSocket;
    }

    private final Map<String, SocketWriter> links = new LinkedHashMap<>();
    private final Map<String, GwSession> byId = new LinkedHashMap<>();
    private final Predicate<String> tokenValid;
    private final Consumer<PlatformCall> log;
    private GwSession current;
    private int opened;
    private int ready;
    Duration heartbeatInterval = Duration.ofSeconds(41);

    QqFakeGateway(Predicate<String> tokenValid, Consumer<PlatformCall> log) {
        this.tokenValid = tokenValid;
        this.log = log;
    }

    void connected(String socketId, Session socket) {
        SocketWriter w = SocketWriter.start(socket, "fake-qq-gateway-" + socketId);
        links.put(socketId, w);
        opened++;
        ObjectNode hello = JSON.createObjectNode().put("op", 10);
        hello.putObject("d").put("heartbeat_interval", heartbeatInterval.toMillis());
        w.send(hello.toString());
    }

    void received(String socketId, String text) {
        SocketWriter w = links.get(socketId);
        if (w == null) return;
        JsonNode p;
        try {
            p = JSON.readTree(text);
        } catch (IOException e) {
            w.close(4001, "invalid payload");
            return;
        }
        JsonNode d = p.path("d");
        switch (p.path("op").asInt(-1)) {
            case 1 -> w.send("{\"op\":11}");
            case 2 -> identify(socketId, w, d);
            case 6 -> resume(socketId, w, d);
            default -> w.close(4001, "invalid opcode");
        }
    }

    private boolean authorized(SocketWriter w, JsonNode d) {
        String token = d.path("token").asText("");
        if (!token.startsWith("QQBot ") || !tokenValid.test(token.substring(6))) {
            w.close(4004, "invalid token");
            return false;
        }
        return true;
    }

    private void identify(String socketId, SocketWriter w, JsonNode d) {
        log.accept(new PlatformCall("gateway.identify", d.toString(), Map.of()));
        if (!authorized(w, d)) return;
        if ((d.path("intents").asLong(0) & GROUP_AND_C2C_EVENT) == 0) {
            w.close(4013, "invalid intent");
            return;
        }
        if (current != null) byId.remove(current.id);
        current = new GwSession();
        byId.put(current.id, current);
        current.liveSocket = socketId;
        ObjectNode ready = JSON.createObjectNode().put("version", 1).put("session_id", current.id);
        ready.putObject("user").put("id", "1000").put("username", "fake-qq-bot").put("bot", true);
        ready.putArray("shard").add(0).add(1);
        send(current, "READY", ready, null);
        this.ready++;
    }

    private void resume(String socketId, SocketWriter w, JsonNode d) {
        log.accept(new PlatformCall("gateway.resume", d.toString(), Map.of()));
        if (!authorized(w, d)) return;
        GwSession s = byId.get(d.path("session_id").asText(""));
        if (s == null) {
            w.send("{\"op\":9,\"d\":false}");
            return;
        }
        long after = d.path("seq").asLong(0);
        s.liveSocket = socketId;
        for (Frame f : s.frames) if (f.seq() > after) w.send(f.text());
        send(s, "RESUMED", JSON.createObjectNode(), null);
        ready++;
    }

    void closed(String socketId) {
        links.remove(socketId);
        for (GwSession s : byId.values()) if (socketId.equals(s.liveSocket)) s.liveSocket = null;
    }

    /** A dispatch to the bot's session (none yet: it is lost, as on the platform). */
    void dispatch(String type, JsonNode d, String eventId) {
        if (current != null) send(current, type, d, eventId);
    }

    private void send(GwSession s, String type, JsonNode d, String eventId) {
        ObjectNode f = JSON.createObjectNode().put("op", 0).put("s", ++s.seq).put("t", type);
        if (eventId != null) f.put("id", eventId);
        f.set("d", d);
        String text = f.toString();
        if (eventId != null) {
            s.frames.add(new Frame(s.seq, text));
            if (s.frames.size() > KEPT) s.frames.removeFirst();
        }
        SocketWriter w = s.liveSocket == null ? null : links.get(s.liveSocket);
        if (w != null) w.send(text);
    }

    /** Drops every connection without a close frame (the bot sees 1006); sessions stay resumable. */
    void dropAll() {
        links.values().forEach(SocketWriter::drop);
    }

    /** Sends op 7 (reconnect) on every connection. */
    void askReconnect() {
        links.values().forEach(w -> w.send("{\"op\":7}"));
    }

    int opened() {
        return opened;
    }

    int ready() {
        return ready;
    }

    int live() {
        return (int) byId.values().stream().filter(s -> s.liveSocket != null).count();
    }
}
