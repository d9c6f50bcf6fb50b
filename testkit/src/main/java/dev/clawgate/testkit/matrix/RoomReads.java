package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.matrix.Exchange.Answer;
import java.util.ArrayList;
import java.util.List;

/**
 * What the bot reads outside {@code /sync}: room state, members, the paginated timeline ({@code /messages}), single
 * events, relations ({@code /_matrix/client/v1/rooms/.../relations}), joined rooms, {@code whoami}, and global account
 * data such as {@code m.direct}.
 */
final class RoomReads {
    private final Homeserver hs;

    RoomReads(Homeserver hs) {
        this.hs = hs;
    }

    Answer whoami(Exchange x) {
        return Answer.json(Homeserver.JSON
                .createObjectNode()
                .put("user_id", x.login().userId())
                .put("device_id", x.login().deviceId())
                .put("is_guest", false));
    }

    Answer joinedRooms(Exchange x) {
        return hs.locked(() -> {
            ObjectNode n = Homeserver.JSON.createObjectNode();
            ArrayNode ids = n.putArray("joined_rooms");
            hs.rooms.values().forEach(r -> {
                if ("join".equals(r.membership(x.login().userId()))) ids.add(r.id);
            });
            return Answer.json(n);
        });
    }

    /**
     * {@code GET /rooms/{roomId}/state[/{eventType}[/{stateKey}]]}: all state, or one event's content (404 when
     * absent).
     */
    Answer state(Exchange x) throws MatrixError {
        return hs.locked(() -> {
            Room room = memberRoom(x);
            if (x.segments().size() == 6) {
                ArrayNode all = Homeserver.JSON.createArrayNode();
                room.state
                        .values()
                        .forEach(e -> all.add(hs.clientEvent(e, x.login().deviceId(), true)));
                return Answer.json(all);
            }
            StoredEvent e = room.state(x.segment(6), x.segments().size() > 7 ? x.segment(7) : "");
            if (e == null) throw MatrixError.notFound("Event not found.");
            return Answer.json(e.content());
        });
    }

    Answer joinedMembers(Exchange x) throws MatrixError {
        return hs.locked(() -> {
            Room room = memberRoom(x);
            ObjectNode n = Homeserver.JSON.createObjectNode();
            ObjectNode joined = n.putObject("joined");
            for (String u : room.members("join"))
                joined.putObject(u).put("display_name", hs.displayNames.get(u)).putNull("avatar_url");
            return Answer.json(n);
        });
    }

    /** {@code GET /rooms/{roomId}/members}, with the optional {@code membership} and {@code not_membership} filters. */
    Answer members(Exchange x) throws MatrixError {
        return hs.locked(() -> {
            Room room = memberRoom(x);
            ObjectNode n = Homeserver.JSON.createObjectNode();
            ArrayNode chunk = n.putArray("chunk");
            for (StoredEvent e : room.state.values()) {
                if (!e.type().equals("m.room.member")) continue;
                String m = e.content().path("membership").asText();
                if (x.query("membership") != null && !x.query("membership").equals(m)) continue;
                if (x.query("not_membership") != null
                        && x.query("not_membership").equals(m)) continue;
                chunk.add(hs.clientEvent(e, x.login().deviceId(), true));
            }
            return Answer.json(n);
        });
    }

    Answer event(Exchange x) throws MatrixError {
        return hs.locked(() -> {
            Room room = memberRoom(x);
            StoredEvent e = hs.eventsById.get(x.segment(6));
            if (e == null || !e.roomId().equals(room.id)) throw MatrixError.notFound("Event not found.");
            return Answer.json(hs.clientEvent(e, x.login().deviceId(), true));
        });
    }

    /**
     * {@code GET /rooms/{roomId}/messages} ("Syncing", pagination): {@code dir} is required, {@code from} is a
     * {@code next_batch} or {@code prev_batch} token (absent: the end for {@code b}, the start for {@code f}),
     * {@code to} the token to stop at, {@code limit} defaults to 10, {@code filter} is a RoomEventFilter. {@code end}
     * is left out when there is nothing more.
     */
    Answer messages(Exchange x) throws MatrixError {
        String dir = x.query("dir");
        if (!"b".equals(dir) && !"f".equals(dir)) throw MatrixError.invalidParam("Unknown dir value: " + dir);
        int limit = intParam(x.query("limit"), 10);
        SyncFilter.EventFilter filter = new SyncFilter.EventFilter(jsonParam(x.query("filter")));
        return hs.locked(() -> {
            Room room = memberRoom(x);
            long from = x.query("from") == null
                    ? (dir.equals("b") ? hs.position : 0)
                    : SyncEndpoint.parseToken(x.query("from"));
            // "to": the token to stop at (a sync's since, when a client fills the gap a limited timeline left)
            long to = x.query("to") == null
                    ? (dir.equals("b") ? -1 : hs.position)
                    : SyncEndpoint.parseToken(x.query("to"));
            List<StoredEvent> all = filter.apply(dir.equals("b") ? room.between(to, from) : room.between(from, to));
            List<StoredEvent> page = new ArrayList<>();
            if (dir.equals("b")) for (int i = all.size() - 1; i >= 0 && page.size() < limit; i--) page.add(all.get(i));
            else for (int i = 0; i < all.size() && page.size() < limit; i++) page.add(all.get(i));
            ObjectNode n = Homeserver.JSON.createObjectNode().put("start", SyncEndpoint.token(from));
            ArrayNode chunk = n.putArray("chunk");
            page.forEach(e -> chunk.add(hs.clientEvent(e, x.login().deviceId(), true)));
            if (page.size() < all.size()) {
                StoredEvent last = page.getLast();
                n.put("end", SyncEndpoint.token(dir.equals("b") ? last.position() - 1 : last.position()));
            }
            return Answer.json(n);
        });
    }

    /**
     * {@code GET /_matrix/client/v1/rooms/{roomId}/relations/{eventId}[/{relType}[/{eventType}]]} ("Relationships"):
     * the child events of a parent, newest first unless {@code dir=f}, paginated by {@code limit} with a
     * {@code next_batch} token. A redacted child lost its relation and is gone.
     */
    Answer relations(Exchange x) throws MatrixError {
        String parentId = x.segment(6);
        String relType = x.segments().size() > 7 ? x.segment(7) : null;
        String eventType = x.segments().size() > 8 ? x.segment(8) : null;
        int limit = intParam(x.query("limit"), 50);
        int offset = x.query("from") == null ? 0 : relationsOffset(x.query("from"));
        return hs.locked(() -> {
            Room room = memberRoom(x);
            StoredEvent parent = hs.eventsById.get(parentId);
            if (parent == null || !parent.roomId().equals(room.id)) throw MatrixError.notFound("Event not found.");
            List<StoredEvent> children = new ArrayList<>();
            for (StoredEvent e : room.events) {
                if (!parentId.equals(e.relatedEventId())) continue;
                if (relType != null && !relType.equals(e.relType())) continue;
                if (eventType != null && !eventType.equals(e.type())) continue;
                children.add(e);
            }
            if (!"f".equals(x.query("dir"))) java.util.Collections.reverse(children);
            ObjectNode n = Homeserver.JSON.createObjectNode();
            ArrayNode chunk = n.putArray("chunk");
            for (int i = offset; i < Math.min(children.size(), offset + limit); i++) {
                chunk.add(hs.clientEvent(children.get(i), x.login().deviceId(), true));
            }
            if (offset + limit < children.size()) n.put("next_batch", "r" + (offset + limit));
            return Answer.json(n);
        });
    }

    /** {@code PUT /user/{userId}/account_data/{type}} ("Client Config"): only for oneself. */
    Answer putAccountData(Exchange x) throws MatrixError {
        if (!x.segment(4).equals(x.login().userId()))
            throw MatrixError.forbidden("Cannot add account data for other users.");
        JsonNode content = x.json();
        return hs.locked(() -> {
            hs.putAccountData(x.segment(6), (ObjectNode) content);
            return Answer.json(Homeserver.JSON.createObjectNode());
        });
    }

    Answer getAccountData(Exchange x) throws MatrixError {
        if (!x.segment(4).equals(x.login().userId()))
            throw MatrixError.forbidden("Cannot get account data for other users.");
        return hs.locked(() -> {
            Homeserver.AccountData d = hs.accountData.get(x.segment(6));
            if (d == null) throw MatrixError.notFound("Account data not found");
            return Answer.json(d.content());
        });
    }

    /** The room, if the bot is or was in it (a member who left still reads what it saw). */
    private Room memberRoom(Exchange x) throws MatrixError {
        Room room = hs.rooms.get(x.segment(4));
        String m = room == null ? null : room.membership(x.login().userId());
        if (!"join".equals(m) && !"leave".equals(m)) {
            throw MatrixError.forbidden("User " + x.login().userId() + " not in room " + x.segment(4));
        }
        return room;
    }

    static int intParam(String raw, int dflt) throws MatrixError {
        if (raw == null) return dflt;
        try {
            int v = Integer.parseInt(raw);
            if (v < 1) throw MatrixError.invalidParam("limit must be positive");
            return v;
        } catch (NumberFormatException e) {
            throw MatrixError.invalidParam("Not an integer: " + raw);
        }
    }

    static JsonNode jsonParam(String raw) throws MatrixError {
        if (raw == null) return Homeserver.JSON.createObjectNode();
        try {
            JsonNode n = Homeserver.JSON.readTree(raw);
            if (n == null || !n.isObject()) throw MatrixError.notJson();
            return n;
        } catch (java.io.IOException e) {
            throw new MatrixError(400, "M_NOT_JSON", "filter must be valid JSON");
        }
    }

    private static int relationsOffset(String token) throws MatrixError {
        try {
            return Integer.parseInt(token.substring(1));
        } catch (RuntimeException e) {
            throw MatrixError.invalidParam("Invalid from token");
        }
    }
}
