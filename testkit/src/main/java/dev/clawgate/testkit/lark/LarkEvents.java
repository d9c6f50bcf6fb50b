package dev.clawgate.testkit.lark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds event subscription v2.0 bodies ({@code schema: "2.0"}, {@code header}, {@code event}) as the open platform
 * pushes them, e.g. {@code im.message.receive_v1}: {@code event.sender.sender_id.open_id},
 * {@code event.message.{message_id, chat_id, chat_type (p2p|group), message_type, content (a JSON string),
 * mentions[]}}. A mention is {@code @_user_N} in the text and {@code {key, id: {open_id}, name}} in mentions.
 */
public final class LarkEvents {
    static final ObjectMapper JSON = new ObjectMapper();

    private LarkEvents() {}

    /** One user's message event; {@code mentions} are open ids of users (or the bot) mentioned, in order. */
    public static ObjectNode messageReceive(
            String eventId,
            String token,
            String appId,
            String messageId,
            String senderOpenId,
            String chatId,
            String chatType,
            String msgType,
            String content,
            String... mentions) {
        ObjectNode root = JSON.createObjectNode().put("schema", "2.0");
        root.putObject("header")
                .put("event_id", eventId)
                .put("token", token)
                .put("create_time", Long.toString(System.currentTimeMillis()))
                .put("event_type", "im.message.receive_v1")
                .put("tenant_key", "tenant-fake")
                .put("app_id", appId);
        ObjectNode event = root.putObject("event");
        ObjectNode sender = event.putObject("sender");
        sender.putObject("sender_id")
                .put("open_id", senderOpenId)
                .put("union_id", "on_" + senderOpenId)
                .put("user_id", senderOpenId.replace("ou_", "u"));
        sender.put("sender_type", "user").put("tenant_key", "tenant-fake");
        ObjectNode m = event.putObject("message")
                .put("message_id", messageId)
                .put("root_id", "")
                .put("parent_id", "")
                .put("create_time", Long.toString(System.currentTimeMillis()))
                .put("chat_id", chatId)
                .put("chat_type", chatType)
                .put("message_type", msgType)
                .put("content", content);
        ArrayNode ms = m.putArray("mentions");
        for (int i = 0; i < mentions.length; i++) {
            ObjectNode men = ms.addObject().put("key", "@_user_" + (i + 1));
            men.putObject("id").put("open_id", mentions[i]).put("union_id", "on_" + mentions[i]);
            men.put("name", "name of " + mentions[i]).put("tenant_key", "tenant-fake");
        }
        return root;
    }

    /** {@code {"text": text}}, the content of a text message. */
    public static String text(String text) {
        return JSON.createObjectNode().put("text", text).toString();
    }

    /** {@code {"image_key": key}}, the content of an image message. */
    public static String image(String imageKey) {
        return JSON.createObjectNode().put("image_key", imageKey).toString();
    }

    /** The url_verification request: {@code {"challenge", "token", "type": "url_verification"}}. */
    public static ObjectNode urlVerification(String challenge, String token) {
        return JSON.createObjectNode()
                .put("challenge", challenge)
                .put("token", token)
                .put("type", "url_verification");
    }
}
