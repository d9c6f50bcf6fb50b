package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.matrix.Exchange.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /sync} and the filter endpoints (Client-Server API, "Syncing" and "Filtering"). Tokens are stream
 * positions: {@code next_batch} is {@code s<position>}; an incremental sync returns what changed after its
 * {@code since}. Without {@code since} (or with {@code full_state=true}) it answers at once; with it, it blocks until
 * something the filter lets through arrives or {@code timeout} milliseconds pass, then answers empty with the same
 * position.
 */
final class SyncEndpoint {
    private final Homeserver hs;
    private long nextFilterId;

    SyncEndpoint(Homeserver hs) {
        this.hs = hs;
    }

    static String token(long position) {
        return "s" + position;
    }

    /** Synapse answers an unparseable stream token with 400; the spec leaves its form to the server. */
    static long parseToken(String token) throws MatrixError {
        if (token == null || !token.matches("s\\d{1,18}"))
            throw MatrixError.invalidParam("Invalid stream token: " + token);
        return Long.parseLong(token.substring(1));
    }

    /** {@code POST /user/{userId}/filter}: stores the filter, answers {@code {"filter_id"}}; only for oneself. */
    Answer createFilter(Exchange x) throws MatrixError {
        if (!x.segment(4).equals(x.login().userId()))
            throw MatrixError.forbidden("Can only create filters for your own user");
        JsonNode definition = x.json();
        SyncFilter.parse(definition);
        return hs.locked(() -> {
            String id = Long.toString(++nextFilterId);
            hs.filters.put(x.login().userId() + " " + id, definition);
            return Answer.json(Homeserver.JSON.createObjectNode().put("filter_id", id));
        });
    }

    Answer getFilter(Exchange x) throws MatrixError {
        if (!x.segment(4).equals(x.login().userId())) throw MatrixError.forbidden("Cannot get filters for other users");
        JsonNode f = hs.locked(() -> hs.filters.get(x.login().userId() + " " + x.segment(6)));
        if (f == null) throw MatrixError.notFound("No such filter");
        return Answer.json(f);
    }

    Answer sync(Exchange x) throws MatrixError, InterruptedException {
        SyncFilter filter = filter(x);
        Long since = x.query("since") == null ? null : parseToken(x.query("since"));
        boolean fullState = "true".equals(x.query("full_state"));
        long timeoutMs = x.query("timeout") == null ? 0 : parseTimeout(x.query("timeout"));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        hs.lock.lock();
        try {
            while (true) {
                ObjectNode response = build(since, fullState, filter, x.login());
                if (since == null || fullState || !isEmpty(response) || hs.closed) return Answer.json(response);
                long left = deadline - System.nanoTime();
                if (left <= 0) return Answer.json(response);
                hs.changed.awaitNanos(left);
            }
        } finally {
            hs.lock.unlock();
        }
    }

    private SyncFilter filter(Exchange x) throws MatrixError {
        String f = x.query("filter");
        if (f == null) return SyncFilter.NONE;
        if (f.startsWith("{")) return SyncFilter.parse(RoomReads.jsonParam(f));
        JsonNode stored = hs.locked(() -> hs.filters.get(x.login().userId() + " " + f));
        if (stored == null) throw MatrixError.invalidParam("No such filter: " + f); // Synapse's answer to an unknown id
        return SyncFilter.parse(stored);
    }

    private static long parseTimeout(String raw) throws MatrixError {
        try {
            return Math.max(0, Long.parseLong(raw));
        } catch (NumberFormatException e) {
            throw MatrixError.invalidParam("timeout must be an integer");
        }
    }

    private static boolean isEmpty(ObjectNode r) {
        JsonNode rooms = r.path("rooms");
        return rooms.path("join").isEmpty()
                && rooms.path("invite").isEmpty()
                && rooms.path("leave").isEmpty()
                && r.path("account_data").path("events").isEmpty();
    }

    private ObjectNode build(Long since, boolean fullState, SyncFilter filter, Login login) {
        long now = hs.position;
        long after = since == null ? -1 : since;
        String me = login.userId();
        ObjectNode r = Homeserver.JSON.createObjectNode().put("next_batch", token(now));
        ObjectNode rooms = r.putObject("rooms");
        ObjectNode join = rooms.putObject("join"), invite = rooms.putObject("invite"), leave = rooms.putObject("leave");
        for (Room room : hs.rooms.values()) {
            if (!filter.includesRoom(room.id)) continue;
            StoredEvent member = room.state("m.room.member", me);
            if (member == null) continue;
            switch (member.content().path("membership").asText()) {
                case "join" -> {
                    boolean full = since == null || fullState || member.position() > after;
                    ObjectNode joined = joinedRoom(room, full, after, now, filter, login);
                    if (joined != null) join.set(room.id, joined);
                }
                case "invite" -> {
                    if (member.position() > after) invite.set(room.id, invited(room));
                }
                case "leave", "ban" -> {
                    if (since == null ? filter.includeLeave() : member.position() > after) {
                        leave.set(room.id, left(room, after, member.position(), filter, login));
                    }
                }
                default -> {}
            }
        }
        ArrayNode accountData = r.putObject("account_data").putArray("events");
        for (Map.Entry<String, Homeserver.AccountData> d : hs.accountData.entrySet()) {
            if (d.getValue().position() > after && filter.accountData.allows(d.getKey(), me)) {
                accountData
                        .addObject()
                        .put("type", d.getKey())
                        .set("content", d.getValue().content());
            }
        }
        r.putObject("presence").putArray("events");
        r.putObject("to_device").putArray("events");
        return r;
    }

    private ObjectNode joinedRoom(Room room, boolean full, long after, long now, SyncFilter filter, Login login) {
        List<StoredEvent> events = filter.timeline.apply(room.between(full ? -1 : after, now));
        int limit = filter.timelineLimit;
        boolean limited = events.size() > limit;
        List<StoredEvent> timeline = limited ? events.subList(events.size() - limit, events.size()) : events;
        long start = timeline.isEmpty() ? now + 1 : timeline.getFirst().position();
        List<StoredEvent> state =
                full ? room.stateBefore(start) : limited ? room.stateChangesBetween(after, start) : List.of();
        state = filter.state.apply(state);
        ArrayNode ephemeral = ephemeral(room, full ? -1 : after, filter);
        if (!full && timeline.isEmpty() && state.isEmpty() && ephemeral.isEmpty()) return null;
        ObjectNode n = Homeserver.JSON.createObjectNode();
        ObjectNode summary = n.putObject("summary");
        summary.put("m.joined_member_count", room.members("join").size())
                .put("m.invited_member_count", room.members("invite").size());
        ArrayNode heroes = summary.putArray("m.heroes");
        room.members("join").stream()
                .filter(u -> !u.equals(login.userId()))
                .limit(5)
                .forEach(heroes::add);
        n.putObject("state").set("events", events(state, filter, login));
        ObjectNode tl = n.putObject("timeline");
        tl.set("events", events(timeline, filter, login));
        tl.put("limited", limited).put("prev_batch", token(start - 1));
        n.putObject("ephemeral").set("events", ephemeral);
        n.putObject("account_data").putArray("events");
        return n;
    }

    /** "invite_state": stripped state events that describe the room, and the invite itself. */
    private ObjectNode invited(Room room) {
        ObjectNode n = Homeserver.JSON.createObjectNode();
        ArrayNode stripped = n.putObject("invite_state").putArray("events");
        for (StoredEvent e : room.state.values()) {
            boolean describes = List.of(
                            "m.room.create",
                            "m.room.name",
                            "m.room.join_rules",
                            "m.room.encryption",
                            "m.room.canonical_alias",
                            "m.room.avatar")
                    .contains(e.type());
            boolean member = e.type().equals("m.room.member")
                    && !"leave".equals(e.content().path("membership").asText());
            if (!describes && !member) continue;
            stripped.addObject()
                    .put("type", e.type())
                    .put("state_key", e.stateKey())
                    .put("sender", e.sender())
                    .set("content", e.content());
        }
        return n;
    }

    /** A room left (or banned from) since the last sync: the timeline up to the leave. */
    private ObjectNode left(Room room, long after, long leftAt, SyncFilter filter, Login login) {
        List<StoredEvent> events = filter.timeline.apply(room.between(after, leftAt));
        int limit = filter.timelineLimit;
        boolean limited = events.size() > limit;
        List<StoredEvent> timeline = limited ? events.subList(events.size() - limit, events.size()) : events;
        long start = timeline.isEmpty() ? leftAt + 1 : timeline.getFirst().position();
        ObjectNode n = Homeserver.JSON.createObjectNode();
        n.putObject("state")
                .set("events", events(filter.state.apply(room.stateChangesBetween(after, start)), filter, login));
        ObjectNode tl = n.putObject("timeline");
        tl.set("events", events(timeline, filter, login));
        tl.put("limited", limited).put("prev_batch", token(start - 1));
        n.putObject("account_data").putArray("events");
        return n;
    }

    /** The latest {@code m.typing} and every {@code m.receipt} after {@code after}, as the ephemeral filter allows. */
    private ArrayNode ephemeral(Room room, long after, SyncFilter filter) {
        ArrayNode out = Homeserver.JSON.createArrayNode();
        ObjectNode typing = null;
        List<ObjectNode> receipts = new ArrayList<>();
        for (Homeserver.Ephemeral e : hs.ephemeral) {
            if (!e.roomId().equals(room.id) || e.position() <= after) continue;
            if (e.event().path("type").asText().equals("m.typing")) typing = e.event();
            else receipts.add(e.event());
        }
        if (typing != null
                && !(after < 0 && typing.path("content").path("user_ids").isEmpty())
                && filter.ephemeral.allows("m.typing", "")) {
            out.add(typing);
        }
        if (filter.ephemeral.allows("m.receipt", "")) receipts.forEach(out::add);
        return out;
    }

    private ArrayNode events(List<StoredEvent> events, SyncFilter filter, Login login) {
        ArrayNode a = Homeserver.JSON.createArrayNode();
        for (StoredEvent e : events) a.add(filter.project(hs.clientEvent(e, login.deviceId(), false)));
        return a;
    }
}
