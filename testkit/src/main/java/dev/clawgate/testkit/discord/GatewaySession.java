package dev.clawgate.testkit.discord;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.internal.SocketWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A Gateway session and the connection it is on: its intents, the sequence numbers of its dispatches, and the
 * dispatches kept for a Resume to replay (developers/events/gateway, "Resuming": "replay any lost events starting from
 * the last sequence number it received"). Not thread-safe: used under the fake's lock.
 */
final class GatewaySession {
    private static final int KEEP_FOR_REPLAY = 10_000;

    /** One WebSocket: what the app did on it and whether the fake still sends on it. */
    static final class Link {
        final int number;
        final String path;
        final String query;
        final SocketWriter writer;
        GatewaySession session;
        boolean identified;
        /** Stops ACKing heartbeats and sending anything: a zombied connection. */
        boolean zombie;
        /** No more dispatches here: the fake asked the app to reconnect or invalidated the session. */
        boolean paused;

        boolean closedByServer;
        boolean closedByClient;
        int closeCode = -1;
        long lastHeartbeat = System.nanoTime();
        final ArrayDeque<Long> received = new ArrayDeque<>();

        Link(int number, String path, String query, SocketWriter writer) {
            this.number = number;
            this.path = path;
            this.query = query;
            this.writer = writer;
        }

        boolean sendsDispatches() {
            return !zombie && !paused && !closedByServer;
        }
    }

    private record Kept(long seq, String frame) {}

    final String id;
    final int intents;
    long seq;
    Link link;
    boolean invalid;
    long detachedAt;
    private final ArrayDeque<Kept> kept = new ArrayDeque<>();

    GatewaySession(String id, int intents) {
        this.id = id;
        this.intents = intents;
    }

    /** Numbers a dispatch, keeps it for replay, and sends it if the connection takes dispatches. */
    void dispatch(String type, ObjectNode d) {
        long s = ++seq;
        String frame = frame(type, s, d);
        kept.addLast(new Kept(s, frame));
        while (kept.size() > KEEP_FOR_REPLAY) kept.pollFirst();
        if (link != null && link.sendsDispatches()) link.writer.send(frame);
    }

    /** Sends a dispatch that is numbered but not kept for replay (RESUMED concerns this connection only). */
    void dispatchOnce(String type, ObjectNode d) {
        long s = ++seq;
        if (link != null && link.sendsDispatches()) link.writer.send(frame(type, s, d));
    }

    /** Whether a Resume from {@code lastSeq} can replay everything after it. */
    boolean canReplayFrom(long lastSeq) {
        return lastSeq <= seq && (kept.isEmpty() || kept.peekFirst().seq() <= lastSeq + 1 || lastSeq == seq);
    }

    /** The kept dispatches after {@code lastSeq}, in order. */
    List<String> after(long lastSeq) {
        List<String> out = new ArrayList<>();
        for (Kept k : kept) if (k.seq() > lastSeq) out.add(k.frame());
        return out;
    }

    static String frame(String type, long seq, ObjectNode d) {
        ObjectNode n =
                DiscordWorld.JSON.createObjectNode().put("op", 0).put("t", type).put("s", seq);
        n.set("d", d);
        return n.toString();
    }
}
