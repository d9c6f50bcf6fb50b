package dev.clawgate.server.channel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The web chat's JSON frames (SPEC CH-2). Client to server: {@code {type:"message", id, text}}. Server to client:
 * {@code delta}, {@code final}, {@code notice}, {@code error} (each with {@code text}) and {@code done}, each carrying
 * the {@code id} of the message it answers; the live preview (SPEC OUT-9) sends {@code draft} then {@code edit} frames
 * with the whole text so far (and {@code reasoning} under {@code /reasoning stream}) and a {@code messageId}, which the
 * {@code final} frame that replaces the draft carries too.
 */
final class WebChatFrames {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern MESSAGE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

    /** A client frame, read. */
    sealed interface Inbound permits Message, Invalid {}

    /** A message to record; {@code id} null when the client gave none. */
    record Message(String id, String text) implements Inbound {}

    /** A frame that records nothing; {@code id} when the frame had a usable one, so the page can match the error. */
    record Invalid(String id, String reason) implements Inbound {}

    private WebChatFrames() {}

    static Inbound parse(String frame) {
        JsonNode node;
        try {
            node = JSON.readTree(frame);
        } catch (JsonProcessingException e) {
            return new Invalid(
                    null, "the frame is not JSON; send {\"type\":\"message\",\"id\":\"...\",\"text\":\"...\"}");
        }
        if (node == null || !node.isObject()) return new Invalid(null, "the frame must be a JSON object");
        JsonNode idNode = node.get("id");
        String id = null;
        if (idNode != null && !idNode.isNull()) {
            if (!idNode.isTextual() || !MESSAGE_ID.matcher(idNode.asText()).matches()) {
                return new Invalid(null, "'id' must be 1 to 100 letters, digits or . _ : -");
            }
            id = idNode.asText();
        }
        String type = node.path("type").asText("");
        if (!type.equals("message")) {
            return new Invalid(
                    id,
                    type.isEmpty()
                            ? "the frame has no 'type'; the only type is \"message\""
                            : "unknown frame type '" + shorten(type) + "'; the only type is \"message\"");
        }
        JsonNode text = node.get("text");
        if (text == null || !text.isTextual()) return new Invalid(id, "'text' must be a string");
        if (text.asText().isBlank()) return new Invalid(id, "the message is empty");
        // its length is the inbox's rule (messages.max_chars, SPEC OP-10), answered from the acceptance
        return new Message(id, text.asText());
    }

    static String delta(String id, String text) {
        return frame("delta", id).put("text", text).toString();
    }

    static String reply(String id, String text) {
        return frame("final", id).put("text", text).toString();
    }

    /** The final reply's first part, replacing the draft {@code messageId} showed (SPEC OUT-9 finalEdit). */
    static String reply(String id, String text, String messageId) {
        return frame("final", id).put("text", text).put("messageId", messageId).toString();
    }

    /** A {@code draft} or {@code edit} frame of the live preview: the whole text so far. */
    static String preview(String type, String id, String messageId, String text, String reasoning) {
        ObjectNode n = frame(type, id).put("messageId", messageId).put("text", text);
        if (reasoning != null) n.put("reasoning", reasoning);
        return n.toString();
    }

    static String notice(String id, String text) {
        return frame("notice", id).put("text", text).toString();
    }

    static String error(String id, String text) {
        return frame("error", id).put("text", text).toString();
    }

    static String done(String id, String outcome) {
        return frame("done", id)
                .put("outcome", outcome.toLowerCase(Locale.ROOT))
                .toString();
    }

    private static ObjectNode frame(String type, String id) {
        ObjectNode n = JSON.createObjectNode().put("type", type);
        if (id != null) n.put("id", id);
        return n;
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
