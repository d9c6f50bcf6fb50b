package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;

/**
 * What one (non-bot) user does, as {@code homeserver.as(alice)}: each call writes the event a real client would send
 * and returns its event id. The user must be joined to the room.
 */
public final class UserActions {
    private final Homeserver hs;
    private final MatrixUser user;

    UserActions(Homeserver hs, MatrixUser user) {
        this.hs = hs;
        this.user = user;
    }

    public String sendText(MatrixRoom room, String body) {
        return send(room, "m.room.message", message("m.text", body));
    }

    /**
     * A formatted message ("m.room.message msgtypes": {@code format: org.matrix.custom.html} beside a plain
     * {@code body}).
     */
    public String sendHtml(MatrixRoom room, String body, String html) {
        return send(
                room,
                "m.room.message",
                message("m.text", body).put("format", "org.matrix.custom.html").put("formatted_body", html));
    }

    public String sendEvent(MatrixRoom room, String type, String contentJson) {
        try {
            return send(room, type, (ObjectNode) Homeserver.JSON.readTree(contentJson));
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalArgumentException("content must be a JSON object: " + contentJson, e);
        }
    }

    /** A rich reply ("Rich replies"): {@code m.relates_to.m.in_reply_to.event_id}. */
    public String replyTo(MatrixRoom room, String eventId, String body) {
        ObjectNode c = message("m.text", body);
        c.putObject("m.relates_to").putObject("m.in_reply_to").put("event_id", eventId);
        return send(room, "m.room.message", c);
    }

    /** A message in the thread rooted at {@code rootId} ("Threading"), with the reply fallback clients send. */
    public String sendInThread(MatrixRoom room, String rootId, String body) {
        ObjectNode c = message("m.text", body);
        ObjectNode rel = c.putObject("m.relates_to")
                .put("rel_type", "m.thread")
                .put("event_id", rootId)
                .put("is_falling_back", true);
        rel.putObject("m.in_reply_to").put("event_id", rootId);
        return send(room, "m.room.message", c);
    }

    /** An {@code m.reaction} annotation ("Event annotations and reactions"). */
    public String react(MatrixRoom room, String eventId, String key) {
        ObjectNode c = Homeserver.JSON.createObjectNode();
        c.putObject("m.relates_to")
                .put("rel_type", "m.annotation")
                .put("event_id", eventId)
                .put("key", key);
        return send(room, "m.reaction", c);
    }

    /** An edit ("Event replacements"): fallback {@code body} "* new", {@code m.new_content}, {@code m.replace}. */
    public String edit(MatrixRoom room, String eventId, String newBody) {
        ObjectNode c = message("m.text", "* " + newBody);
        c.set("m.new_content", message("m.text", newBody));
        c.putObject("m.relates_to").put("rel_type", "m.replace").put("event_id", eventId);
        return send(room, "m.room.message", c);
    }

    public String redact(MatrixRoom room, String eventId) {
        return hs.locked(() -> {
            Room r = joined(room);
            StoredEvent target = hs.eventsById.get(eventId);
            StoredEvent redaction = hs.append(
                    r, user.userId(), "m.room.redaction", null, Homeserver.JSON.createObjectNode(), null, null);
            redaction.event().put("redacts", eventId);
            if (target != null && target.roomId().equals(r.id)) hs.redact(target, redaction);
            return redaction.eventId();
        });
    }

    /** Uploads {@code bytes} to the media repository and sends an {@code m.image} pointing at it. */
    public String sendImage(MatrixRoom room, String fileName, String mimeType, byte[] bytes) {
        return sendMedia(room, "m.image", fileName, mimeType, bytes);
    }

    public String sendFile(MatrixRoom room, String fileName, String mimeType, byte[] bytes) {
        return sendMedia(room, "m.file", fileName, mimeType, bytes);
    }

    private String sendMedia(MatrixRoom room, String msgtype, String fileName, String mimeType, byte[] bytes) {
        String mxc = hs.locked(() -> {
            String id = hs.newMediaId();
            hs.media.put(id, new Homeserver.Media(id, bytes.clone(), mimeType, fileName));
            return "mxc://" + hs.serverName + "/" + id;
        });
        ObjectNode c = message(msgtype, fileName).put("url", mxc);
        c.putObject("info").put("mimetype", mimeType).put("size", bytes.length);
        return send(room, "m.room.message", c);
    }

    /** An {@code m.room.encrypted} Megolm event: ciphertext the bot cannot read ("End-to-end encryption"). */
    public String sendEncrypted(MatrixRoom room) {
        ObjectNode c = Homeserver.JSON
                .createObjectNode()
                .put("algorithm", "m.megolm.v1.aes-sha2")
                .put(
                        "ciphertext",
                        Base64.getEncoder()
                                .withoutPadding()
                                .encodeToString(("opaque:" + System.nanoTime())
                                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .put("device_id", "DEVICE" + user.localpart().toUpperCase(java.util.Locale.ROOT))
                .put("sender_key", "curve25519:" + user.localpart())
                .put("session_id", "session-" + user.localpart());
        return send(room, "m.room.encrypted", c);
    }

    public void typing(MatrixRoom room, boolean typing) {
        hs.locked(() -> {
            joined(room);
            RoomEndpoints.setTyping(hs, room.roomId(), user.userId(), typing, 30_000);
            return null;
        });
    }

    /**
     * Invites the bot; {@code isDirect} marks the invite as a DM ({@code is_direct} on the member event, "Direct
     * Messaging").
     */
    public void inviteBot(MatrixRoom room, boolean isDirect) {
        hs.locked(() -> {
            Room r = joined(room);
            return hs.setMembership(r, user.userId(), hs.bot.userId(), "invite", isDirect ? Boolean.TRUE : null);
        });
    }

    /** Removes the bot from the room (a kick: membership {@code leave} set by someone else). */
    public void kickBot(MatrixRoom room) {
        hs.locked(() -> hs.setMembership(joined(room), user.userId(), hs.bot.userId(), "leave", null));
    }

    /** Turns encryption on: the {@code m.room.encryption} state event with the Megolm algorithm. */
    public void enableEncryption(MatrixRoom room) {
        hs.locked(() -> hs.append(
                joined(room),
                user.userId(),
                "m.room.encryption",
                "",
                Homeserver.JSON.createObjectNode().put("algorithm", "m.megolm.v1.aes-sha2"),
                null,
                null));
    }

    public void join(MatrixRoom room) {
        hs.locked(() -> hs.setMembership(hs.rooms.get(room.roomId()), user.userId(), user.userId(), "join", null));
    }

    public void leave(MatrixRoom room) {
        hs.locked(() -> hs.setMembership(joined(room), user.userId(), user.userId(), "leave", null));
    }

    private String send(MatrixRoom room, String type, ObjectNode content) {
        return hs.locked(() -> hs.append(joined(room), user.userId(), type, null, content, null, null)
                .eventId());
    }

    private Room joined(MatrixRoom room) {
        Room r = hs.rooms.get(room.roomId());
        if (r == null || !"join".equals(r.membership(user.userId()))) {
            throw new IllegalStateException(user.userId() + " is not joined to " + room.roomId());
        }
        return r;
    }

    private static ObjectNode message(String msgtype, String body) {
        return Homeserver.JSON.createObjectNode().put("msgtype", msgtype).put("body", body);
    }
}
