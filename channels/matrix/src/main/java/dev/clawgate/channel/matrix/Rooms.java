package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the sync stream told about the bot's rooms (SPEC CH-6): member counts (from the room {@code summary}, sent only
 * when they change), encryption ({@code m.room.encryption} state), and which rooms are direct chats: listed in the
 * bot's {@code m.direct} account data, invited with {@code is_direct}, or with at most two members.
 */
final class Rooms {
    private final Map<String, Integer> members = new ConcurrentHashMap<>();
    private final Set<String> encrypted = ConcurrentHashMap.newKeySet();
    private final Set<String> directInvites = ConcurrentHashMap.newKeySet();
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    private volatile Set<String> mDirect = Set.of();

    /** Whether the room was in an earlier sync of this process. */
    boolean known(String roomId) {
        return known.contains(roomId);
    }

    void know(String roomId) {
        known.add(roomId);
    }

    /** {@code m.direct} content: user id to the DM rooms with them. */
    void direct(JsonNode content) {
        Set<String> rooms = ConcurrentHashMap.newKeySet();
        content.properties().forEach(e -> e.getValue().forEach(r -> rooms.add(r.asText())));
        mDirect = rooms;
    }

    void invitedDirect(String roomId) {
        directInvites.add(roomId);
    }

    void summary(String roomId, JsonNode summary) {
        JsonNode joined = summary.path("m.joined_member_count"), invited = summary.path("m.invited_member_count");
        if (joined.isInt() || invited.isInt()) members.put(roomId, joined.asInt(0) + invited.asInt(0));
    }

    /** Looks at a state or timeline event: {@code m.room.encryption} marks the room encrypted. */
    void see(String roomId, JsonNode event) {
        if ("m.room.encryption".equals(event.path("type").asText()) && event.has("state_key")) encrypted.add(roomId);
    }

    boolean encrypted(String roomId) {
        return encrypted.contains(roomId);
    }

    boolean direct(String roomId) {
        if (mDirect.contains(roomId) || directInvites.contains(roomId)) return true;
        Integer n = members.get(roomId);
        return n != null && n <= 2;
    }

    void left(String roomId) {
        members.remove(roomId);
        known.remove(roomId);
        encrypted.remove(roomId);
        directInvites.remove(roomId);
    }
}
