package dev.clawgate.testkit.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One message the fake platform posts to the gateway, in the generic webhook's JSON shape. Optional fields are null
 * when absent.
 */
public record PlatformMessage(
        String id,
        String sender,
        String senderName,
        String chat,
        String chatType,
        String thread,
        Boolean mentioned,
        String text,
        Long timestamp) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public PlatformMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(text, "text");
    }

    /** A direct message: the chat is the sender's own, stamped now. */
    public static PlatformMessage direct(String id, String sender, String text) {
        return new PlatformMessage(id, sender, null, sender, "direct", null, null, text, System.currentTimeMillis());
    }

    /** The lane the platform delivers in order: one chat, one sender. */
    public String lane() {
        return chat + "\u001f" + sender;
    }

    /** The exact bytes posted (and signed). */
    public byte[] body() {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", id).put("sender", sender).put("chat", chat).put("text", text);
        if (senderName != null) n.put("sender_name", senderName);
        if (chatType != null) n.put("chat_type", chatType);
        if (thread != null) n.put("thread", thread);
        if (mentioned != null) n.put("mentioned", mentioned);
        if (timestamp != null) n.put("timestamp", timestamp);
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }
}
