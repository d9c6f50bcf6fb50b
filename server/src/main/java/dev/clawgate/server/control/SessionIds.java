package dev.clawgate.server.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A session key as one URL-safe id for {@code /api/sessions/{id}/transcript}: the key's tuple as a JSON array in
 * base64url, so no two keys share an id (SPEC HI-1: joined strings collide) and the id round-trips exactly.
 */
public final class SessionIds {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SessionIds() {}

    public static String of(SessionKey key) {
        ArrayNode a = JSON.createArrayNode()
                .add(key.channel())
                .add(key.account())
                .add(key.chatType().wireName())
                .add(key.replyTarget())
                .add(key.threadId())
                .add(key.sender());
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(a.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException when {@code id} is not one {@link #of} made */
    public static SessionKey parse(String id) {
        try {
            JsonNode a = JSON.readTree(new String(Base64.getUrlDecoder().decode(id), StandardCharsets.UTF_8));
            if (a == null || !a.isArray() || a.size() != 6)
                throw new IllegalArgumentException("not a session id: " + id);
            return new SessionKey(
                    a.get(0).asText(),
                    a.get(1).asText(),
                    ChatType.fromWire(a.get(2).asText()),
                    a.get(3).asText(),
                    a.get(4).isNull() ? null : a.get(4).asText(),
                    a.get(5).isNull() ? null : a.get(5).asText());
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a session id: " + id);
        }
    }
}
