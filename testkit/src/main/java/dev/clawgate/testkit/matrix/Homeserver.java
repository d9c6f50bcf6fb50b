package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The homeserver's state: rooms and their events, logins, transactions, filters, account data, ephemeral events
 * (typing, receipts) and the media repository. Everything that changes what a {@code /sync} would return advances
 * {@link #position} and wakes waiting long polls. Not thread-safe by itself: callers hold {@link #lock}.
 */
final class Homeserver {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ROOM_VERSION = "10";

    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();
    final String serverName;
    final MatrixUser bot;
    final Map<String, Room> rooms = new LinkedHashMap<>();
    final Map<String, String> aliases = new HashMap<>();
    final Map<String, StoredEvent> eventsById = new HashMap<>();
    final Map<String, Login> logins = new HashMap<>();
    final Map<String, Transaction> transactions = new HashMap<>();
    final Map<String, JsonNode> filters = new HashMap<>();
    final Map<String, AccountData> accountData = new LinkedHashMap<>();
    final List<Ephemeral> ephemeral = new ArrayList<>();
    final Map<String, Map<String, Long>> typingUntil = new HashMap<>();
    final Map<String, Media> media = new HashMap<>();
    final List<TypingNotice> typingLog = new ArrayList<>();
    final List<ReadReceipt> receiptLog = new ArrayList<>();
    final Map<String, String> displayNames = new HashMap<>();
    Duration transactionRetention = Duration.ofMinutes(30);
    long maxUploadBytes = 50L << 20;
    long position;
    long clockOffsetMillis;
    boolean closed;
    private long nextId;

    /** What a transaction id was answered with, and when (for the retention window). */
    record Transaction(String eventId, long atMillis) {}

    record AccountData(long position, ObjectNode content) {}

    record Ephemeral(long position, String roomId, ObjectNode event) {}

    record Media(String mediaId, byte[] bytes, String contentType, String fileName) {}

    /** An action run under the lock. */
    @FunctionalInterface
    interface Locked<T, E extends Exception> {
        T get() throws E;
    }

    <T, E extends Exception> T locked(Locked<T, E> action) throws E {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    Homeserver(String serverName, String botLocalpart) {
        this.serverName = serverName;
        this.bot = user(botLocalpart);
    }

    MatrixUser user(String localpart) {
        String id = "@" + localpart + ":" + serverName;
        String name = Character.toUpperCase(localpart.charAt(0)) + localpart.substring(1);
        displayNames.putIfAbsent(id, name);
        return new MatrixUser(id, displayNames.get(id));
    }

    long now() {
        return System.currentTimeMillis() + clockOffsetMillis;
    }

    private String opaque(String kind, int length) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256")
                    .digest((kind + ':' + serverName + ':' + (++nextId) + ':' + System.nanoTime())
                            .getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(d).substring(0, length);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** Room versions 4 and later: {@code $} and 43 characters of unpadded URL-safe base64 (the reference hash). */
    String newEventId() {
        return "$" + opaque("event", 43);
    }

    String newMediaId() {
        return opaque("media", 24);
    }

    Login newLogin(String deviceId) {
        Login l = new Login("syt_" + bot.localpart() + "_" + opaque("token", 20), deviceId, bot.userId());
        logins.put(l.accessToken(), l);
        return l;
    }

    StoredEvent append(
            Room room, String sender, String type, String stateKey, ObjectNode content, String device, String txnId) {
        ObjectNode e = JSON.createObjectNode()
                .put("type", type)
                .put("event_id", newEventId())
                .put("sender", sender)
                .put("origin_server_ts", now())
                .put("room_id", room.id);
        if (stateKey != null) e.put("state_key", stateKey);
        e.set("content", content);
        e.putObject("unsigned");
        StoredEvent s = new StoredEvent(++position, room.id, e, device, txnId);
        room.add(s);
        eventsById.put(s.eventId(), s);
        changed.signalAll();
        return s;
    }

    void addEphemeral(String roomId, ObjectNode event) {
        ephemeral.add(new Ephemeral(++position, roomId, event));
        changed.signalAll();
    }

    void putAccountData(String type, ObjectNode content) {
        accountData.put(type, new AccountData(++position, content));
        changed.signalAll();
    }

    Room createRoom(MatrixUser creator, String name, boolean isPublic) {
        Room room = new Room("!" + opaque("room", 18) + ":" + serverName);
        rooms.put(room.id, room);
        append(
                room,
                creator.userId(),
                "m.room.create",
                "",
                JSON.createObjectNode().put("room_version", ROOM_VERSION),
                null,
                null);
        setMembership(room, creator.userId(), creator.userId(), "join", null);
        ObjectNode levels = JSON.createObjectNode()
                .put("events_default", 0)
                .put("state_default", 50)
                .put("redact", 50);
        levels.putObject("users").put(creator.userId(), 100);
        append(room, creator.userId(), "m.room.power_levels", "", levels, null, null);
        append(
                room,
                creator.userId(),
                "m.room.join_rules",
                "",
                JSON.createObjectNode().put("join_rule", isPublic ? "public" : "invite"),
                null,
                null);
        append(
                room,
                creator.userId(),
                "m.room.history_visibility",
                "",
                JSON.createObjectNode().put("history_visibility", "shared"),
                null,
                null);
        if (name != null)
            append(
                    room,
                    creator.userId(),
                    "m.room.name",
                    "",
                    JSON.createObjectNode().put("name", name),
                    null,
                    null);
        return room;
    }

    StoredEvent setMembership(Room room, String sender, String target, String membership, Boolean isDirect) {
        ObjectNode c = JSON.createObjectNode().put("membership", membership);
        if (membership.equals("join") || membership.equals("invite")) c.put("displayname", displayNames.get(target));
        if (isDirect != null) c.put("is_direct", isDirect);
        return append(room, sender, "m.room.member", target, c, null, null);
    }

    Room room(String roomId) throws MatrixError {
        Room r = rooms.get(roomId);
        if (r == null) throw MatrixError.notFound("Unknown room " + roomId);
        return r;
    }

    /** Synapse's wording for an event sent to a room the sender is not joined to. */
    void requireJoined(Room room, String userId) throws MatrixError {
        if (!"join".equals(room.membership(userId)))
            throw MatrixError.forbidden("User " + userId + " not in room " + room.id);
    }

    /**
     * The event as a client sees it (ClientEvent): {@code unsigned.age}, and the transaction id for the sending device
     * only.
     */
    ObjectNode clientEvent(StoredEvent e, String forDevice, boolean withRoomId) {
        ObjectNode copy = e.event().deepCopy();
        if (!withRoomId) copy.remove("room_id");
        ObjectNode unsigned = (ObjectNode) copy.get("unsigned");
        unsigned.put(
                "age", Math.max(0, now() - e.event().path("origin_server_ts").asLong()));
        // Client-Server API, "Transaction identifiers" / ClientEvent.unsigned.transaction_id: only for the sending
        // device
        if (e.txnId() != null && e.deviceId() != null && e.deviceId().equals(forDevice))
            unsigned.put("transaction_id", e.txnId());
        return copy;
    }

    /** The answer recorded for a transaction, unless it is older than the retention window (then it is forgotten). */
    String transaction(String key) {
        Transaction t = transactions.get(key);
        if (t == null) return null;
        if (now() - t.atMillis() >= transactionRetention.toMillis()) {
            transactions.remove(key);
            return null;
        }
        return t.eventId();
    }

    void rememberTransaction(String key, String eventId) {
        transactions.put(key, new Transaction(eventId, now()));
    }

    /** Room version 10 redaction algorithm ("Redactions"): the content keeps only the keys its type preserves. */
    void redact(StoredEvent target, StoredEvent redaction) {
        ObjectNode content = (ObjectNode) target.event().get("content");
        Set<String> keep = switch (target.type()) {
            case "m.room.member" -> Set.of("membership", "join_authorised_via_users_server");
            case "m.room.create" -> Set.of("creator", "room_version", "m.federate", "predecessor", "type");
            case "m.room.join_rules" -> Set.of("join_rule", "allow");
            case "m.room.power_levels" ->
                Set.of("ban", "events", "events_default", "kick", "redact", "state_default", "users", "users_default");
            case "m.room.history_visibility" -> Set.of("history_visibility");
            default -> Set.of();
        };
        content.retain(keep);
        ((ObjectNode) target.event().get("unsigned"))
                .set("redacted_because", redaction.event().deepCopy());
    }
}
