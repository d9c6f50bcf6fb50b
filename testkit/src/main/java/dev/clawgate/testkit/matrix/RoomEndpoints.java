package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.matrix.Exchange.Answer;
import java.util.Set;

/**
 * What the bot does in rooms (Client-Server API, "Room participation" and modules): send events with transaction ids,
 * redact, typing notifications, receipts and read markers, join and leave. Path segments:
 * {@code _matrix/client/v3/rooms/{roomId}/...}, so the room id is segment 4.
 */
final class RoomEndpoints {
    private static final Set<String> RECEIPT_TYPES = Set.of("m.read", "m.read.private", "m.fully_read");
    /** Synapse's default when a typing notification gives no timeout. */
    private static final long DEFAULT_TYPING_TIMEOUT_MS = 30_000;

    private final Homeserver hs;

    RoomEndpoints(Homeserver hs) {
        this.hs = hs;
    }

    /**
     * {@code PUT /rooms/{roomId}/send/{eventType}/{txnId}}. "Transaction identifiers": a request with the same
     * transaction id on the same endpoint path from the same device is a retransmission and gets the original answer
     * (the same {@code event_id}), for as long as the server retains the transaction (implementation-defined;
     * {@link Homeserver#transactionRetention}).
     */
    Answer send(Exchange x) throws MatrixError {
        String roomId = x.segment(4), type = x.segment(6), txnId = x.segment(7);
        JsonNode content = x.json();
        String key = transactionKey(x);
        return hs.locked(() -> {
            String earlier = hs.transaction(key);
            if (earlier != null) return eventId(earlier);
            Room room = joinedRoom(roomId, x.login());
            if (room.sendingForbidden) {
                throw MatrixError.forbidden(
                        "You don't have permission to post that to the room. " + "user_level (0) < send_level (50)");
            }
            checkRelation(room, type, content, x.login().userId());
            StoredEvent e = hs.append(
                    room,
                    x.login().userId(),
                    type,
                    null,
                    (ObjectNode) content,
                    x.login().deviceId(),
                    txnId);
            hs.rememberTransaction(key, e.eventId());
            return eventId(e.eventId());
        });
    }

    /** "Event annotations and reactions" and "Threading": the two relation checks a homeserver makes on send. */
    private void checkRelation(Room room, String type, JsonNode content, String sender) throws MatrixError {
        JsonNode rel = content.path("m.relates_to");
        String relType = rel.path("rel_type").asText(null);
        String target = rel.path("event_id").asText(null);
        if ("m.annotation".equals(relType)) {
            String key = rel.path("key").asText(null);
            for (StoredEvent e : room.events) {
                if (e.sender().equals(sender)
                        && e.type().equals(type)
                        && !e.redacted()
                        && "m.annotation".equals(e.relType())
                        && target != null
                        && target.equals(e.relatedEventId())
                        && key != null
                        && key.equals(e.relatesTo().path("key").asText(null))) {
                    // "Avoiding duplicate annotations": 400 M_DUPLICATE_ANNOTATION
                    throw new MatrixError(400, "M_DUPLICATE_ANNOTATION", "Can't send same reaction twice");
                }
            }
        } else if ("m.thread".equals(relType) && target != null) {
            StoredEvent root = hs.eventsById.get(target);
            if (root != null && root.relType() != null) {
                // "Threading", server behaviour: a thread cannot be rooted on an event that has a relation
                throw new MatrixError(400, "M_UNKNOWN", "Cannot start threads from an event with a relation");
            }
        }
    }

    /** {@code PUT /rooms/{roomId}/redact/{eventId}/{txnId}} ("Redactions"), idempotent like send. */
    Answer redact(Exchange x) throws MatrixError {
        String roomId = x.segment(4), targetId = x.segment(6), txnId = x.segment(7);
        JsonNode body = x.json();
        String key = transactionKey(x);
        return hs.locked(() -> {
            String earlier = hs.transaction(key);
            if (earlier != null) return eventId(earlier);
            Room room = joinedRoom(roomId, x.login());
            StoredEvent target = hs.eventsById.get(targetId);
            if (target != null
                    && target.roomId().equals(roomId)
                    && !target.sender().equals(x.login().userId())
                    && powerLevel(room, x.login().userId())
                            < room.state("m.room.power_levels", "")
                                    .content()
                                    .path("redact")
                                    .asInt(50)) {
                throw MatrixError.forbidden("You don't have permission to redact events");
            }
            ObjectNode content = Homeserver.JSON.createObjectNode();
            if (body.path("reason").isTextual())
                content.put("reason", body.path("reason").asText());
            StoredEvent redaction = hs.append(
                    room,
                    x.login().userId(),
                    "m.room.redaction",
                    null,
                    content,
                    x.login().deviceId(),
                    txnId);
            redaction.event().put("redacts", targetId); // room versions up to 10: top-level "redacts"
            if (target != null && target.roomId().equals(roomId)) hs.redact(target, redaction);
            hs.rememberTransaction(key, redaction.eventId());
            return eventId(redaction.eventId());
        });
    }

    /**
     * {@code PUT /rooms/{roomId}/typing/{userId}} ("Typing Notifications"); shows as an {@code m.typing} ephemeral
     * event.
     */
    Answer typing(Exchange x) throws MatrixError {
        String roomId = x.segment(4), userId = x.segment(6);
        JsonNode body = x.json();
        if (!body.path("typing").isBoolean()) throw MatrixError.badJson("Missing or invalid 'typing'");
        JsonNode t = body.path("timeout");
        if (!t.isMissingNode() && !t.isIntegralNumber()) throw MatrixError.badJson("'timeout' must be an integer");
        if (!userId.equals(x.login().userId())) throw MatrixError.forbidden("Cannot set another user's typing state");
        boolean typing = body.path("typing").asBoolean();
        Long timeout = t.isIntegralNumber() ? t.asLong() : null;
        return hs.locked(() -> {
            joinedRoom(roomId, x.login());
            hs.typingLog.add(new TypingNotice(roomId, typing, timeout));
            setTyping(hs, roomId, userId, typing, timeout == null ? DEFAULT_TYPING_TIMEOUT_MS : timeout);
            return Answer.json(Homeserver.JSON.createObjectNode());
        });
    }

    static void setTyping(Homeserver hs, String roomId, String userId, boolean typing, long timeoutMs) {
        var users = hs.typingUntil.computeIfAbsent(roomId, r -> new java.util.LinkedHashMap<>());
        if (typing) users.put(userId, hs.now() + timeoutMs);
        else users.remove(userId);
        ObjectNode ev = Homeserver.JSON.createObjectNode().put("type", "m.typing");
        var ids = ev.putObject("content").putArray("user_ids");
        users.forEach((u, until) -> {
            if (until > hs.now()) ids.add(u);
        });
        hs.addEphemeral(roomId, ev);
    }

    /**
     * {@code POST /rooms/{roomId}/receipt/{receiptType}/{eventId}} ("Receipts"), with the optional {@code thread_id}.
     */
    Answer receipt(Exchange x) throws MatrixError {
        String roomId = x.segment(4), type = x.segment(6), eventId = x.segment(7);
        JsonNode body = x.json();
        if (!RECEIPT_TYPES.contains(type)) throw MatrixError.invalidParam("Receipt type not recognized: " + type);
        String thread = body.path("thread_id").asText(null);
        if (thread != null && type.equals("m.fully_read")) {
            throw MatrixError.invalidParam("thread_id is not allowed for m.fully_read");
        }
        if (thread != null && !thread.equals("main") && !thread.startsWith("$"))
            throw MatrixError.invalidParam("Invalid thread_id");
        return hs.locked(() -> {
            joinedRoom(roomId, x.login());
            addReceipt(roomId, eventId, type, thread, x.login().userId());
            return Answer.json(Homeserver.JSON.createObjectNode());
        });
    }

    /** {@code POST /rooms/{roomId}/read_markers}: {@code m.fully_read}, {@code m.read}, {@code m.read.private}. */
    Answer readMarkers(Exchange x) throws MatrixError {
        String roomId = x.segment(4);
        JsonNode body = x.json();
        return hs.locked(() -> {
            joinedRoom(roomId, x.login());
            for (String type : new String[] {"m.fully_read", "m.read", "m.read.private"}) {
                if (body.path(type).isTextual())
                    addReceipt(
                            roomId,
                            body.path(type).asText(),
                            type,
                            null,
                            x.login().userId());
            }
            return Answer.json(Homeserver.JSON.createObjectNode());
        });
    }

    private void addReceipt(String roomId, String eventId, String type, String thread, String userId) {
        hs.receiptLog.add(new ReadReceipt(roomId, eventId, type, thread));
        if (type.equals("m.fully_read")) return; // a read marker is room account data, not a receipt EDU
        ObjectNode ev = Homeserver.JSON.createObjectNode().put("type", "m.receipt");
        ObjectNode r = ev.putObject("content")
                .putObject(eventId)
                .putObject(type)
                .putObject(userId)
                .put("ts", hs.now());
        if (thread != null) r.put("thread_id", thread);
        hs.addEphemeral(roomId, ev);
    }

    /** {@code POST /join/{roomIdOrAlias}} and {@code POST /rooms/{roomId}/join} ("Joining rooms"). */
    Answer join(Exchange x) throws MatrixError {
        String target = x.segment(4); // join/{roomIdOrAlias} and rooms/{roomId}/join both put it there
        return hs.locked(() -> {
            String roomId = target.startsWith("#") ? hs.aliases.get(target) : target;
            Room room = roomId == null ? null : hs.rooms.get(roomId);
            if (room == null) throw MatrixError.notFound("No known servers for " + target);
            String user = x.login().userId();
            String membership = room.membership(user);
            boolean open = "public"
                    .equals(room.state("m.room.join_rules", "")
                            .content()
                            .path("join_rule")
                            .asText());
            if ("ban".equals(membership)) throw MatrixError.forbidden("You are banned from this room");
            if (!"join".equals(membership)) {
                if (!"invite".equals(membership) && !open)
                    throw MatrixError.forbidden("You are not invited to this room.");
                hs.setMembership(room, user, user, "join", null);
            }
            return Answer.json(Homeserver.JSON.createObjectNode().put("room_id", room.id));
        });
    }

    /** {@code POST /rooms/{roomId}/leave}: leaves a joined room or rejects an invite. */
    Answer leave(Exchange x) throws MatrixError {
        String roomId = x.segment(4);
        return hs.locked(() -> {
            Room room = hs.room(roomId);
            String user = x.login().userId();
            String m = room.membership(user);
            if (!"join".equals(m) && !"invite".equals(m))
                throw MatrixError.forbidden("User " + user + " not in room " + roomId);
            hs.setMembership(room, user, user, "leave", null);
            return Answer.json(Homeserver.JSON.createObjectNode());
        });
    }

    private Room joinedRoom(String roomId, Login login) throws MatrixError {
        Room room = hs.rooms.get(roomId);
        if (room == null) throw MatrixError.forbidden("User " + login.userId() + " not in room " + roomId);
        hs.requireJoined(room, login.userId());
        return room;
    }

    static int powerLevel(Room room, String userId) {
        JsonNode levels = room.state("m.room.power_levels", "").content();
        return levels.path("users")
                .path(userId)
                .asInt(levels.path("users_default").asInt(0));
    }

    /** Scope of a transaction id: the device and the endpoint path (which holds room, event type and txn id). */
    private static String transactionKey(Exchange x) {
        return x.login().deviceId() + " " + String.join("/", x.segments());
    }

    private static Answer eventId(String id) {
        return Answer.json(Homeserver.JSON.createObjectNode().put("event_id", id));
    }
}
