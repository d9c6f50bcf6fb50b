package dev.clawgate.testkit.anthropic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.internal.TextPieces;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The JSON documents and stream events the Messages API sends, built from a {@link Reply}. */
final class AnthropicJson {
    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int INPUT_FRAGMENT = 8;

    private AnthropicJson() {}

    /** What one answer is identified and counted by. */
    record Envelope(String id, String model, long inputTokens, long outputTokens) {}

    /** One server-sent event: its {@code event:} name and its {@code data:} JSON. */
    record Event(String type, String data) {}

    static String errorBody(String type, String message) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("type", "error");
        root.putObject("error").put("type", type).put("message", message);
        root.put("request_id", requestId());
        return write(root);
    }

    static String requestId() {
        return "req_fake" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    static String message(Envelope env, Reply r) {
        ObjectNode root = header(env);
        ArrayNode content = root.putArray("content");
        if (r.s.thinking() != null) {
            content.addObject()
                    .put("type", "thinking")
                    .put("thinking", r.s.thinking())
                    .put("signature", "fake-signature");
        }
        if (r.s.text() != null) content.addObject().put("type", "text").put("text", r.s.text());
        for (Reply.ToolUse u : r.s.toolUses()) {
            ObjectNode block = content.addObject();
            block.put("type", "tool_use");
            block.put("id", u.id());
            block.put("name", u.name());
            block.set("input", inputObject(u));
        }
        root.put("stop_reason", r.effectiveStopReason());
        root.putNull("stop_sequence");
        root.putObject("usage").put("input_tokens", env.inputTokens()).put("output_tokens", env.outputTokens());
        return write(root);
    }

    /** The events of a streamed answer, in the order the API sends them, ending with {@code message_stop}. */
    static List<Event> events(Envelope env, Reply r) {
        List<Event> out = new ArrayList<>();
        ObjectNode start = MAPPER.createObjectNode();
        start.put("type", "message_start");
        ObjectNode message = header(env);
        message.putArray("content");
        message.putNull("stop_reason");
        message.putNull("stop_sequence");
        message.putObject("usage").put("input_tokens", env.inputTokens()).put("output_tokens", 1);
        start.set("message", message);
        out.add(event(start));
        int index = 0;
        if (r.s.thinking() != null) {
            out.add(blockStart(
                    index, MAPPER.createObjectNode().put("type", "thinking").put("thinking", "")));
            for (String piece : TextPieces.split(r.s.thinking(), r.s.chunks())) {
                out.add(blockDelta(
                        index,
                        MAPPER.createObjectNode().put("type", "thinking_delta").put("thinking", piece)));
            }
            out.add(blockDelta(
                    index,
                    MAPPER.createObjectNode().put("type", "signature_delta").put("signature", "fake-signature")));
            out.add(blockStop(index++));
        }
        if (r.s.text() != null) {
            out.add(blockStart(
                    index, MAPPER.createObjectNode().put("type", "text").put("text", "")));
            out.add(event(MAPPER.createObjectNode().put("type", "ping")));
            for (String piece : TextPieces.split(r.s.text(), r.s.chunks())) {
                out.add(blockDelta(
                        index,
                        MAPPER.createObjectNode().put("type", "text_delta").put("text", piece)));
            }
            out.add(blockStop(index++));
        }
        for (Reply.ToolUse u : r.s.toolUses()) {
            ObjectNode block = MAPPER.createObjectNode()
                    .put("type", "tool_use")
                    .put("id", u.id())
                    .put("name", u.name());
            block.putObject("input");
            out.add(blockStart(index, block));
            // the API opens each tool input with an empty fragment
            out.add(blockDelta(index, inputDelta("")));
            String input = u.inputJson();
            for (int i = 0; i < input.length(); i += INPUT_FRAGMENT) {
                out.add(blockDelta(
                        index, inputDelta(input.substring(i, Math.min(input.length(), i + INPUT_FRAGMENT)))));
            }
            out.add(blockStop(index++));
        }
        if (r.s.streamErrorType() != null) {
            out.add(new Event("error", errorBody(r.s.streamErrorType(), r.s.streamErrorMessage())));
            return out;
        }
        ObjectNode delta = MAPPER.createObjectNode();
        delta.put("type", "message_delta");
        delta.putObject("delta").put("stop_reason", r.effectiveStopReason()).putNull("stop_sequence");
        delta.putObject("usage").put("output_tokens", env.outputTokens());
        out.add(event(delta));
        out.add(event(MAPPER.createObjectNode().put("type", "message_stop")));
        return out;
    }

    static String models(List<String> ids) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode data = root.putArray("data");
        for (String id : ids) {
            data.addObject()
                    .put("type", "model")
                    .put("id", id)
                    .put("display_name", id)
                    .put("created_at", "2025-01-01T00:00:00Z");
        }
        root.put("has_more", false);
        if (ids.isEmpty()) {
            root.putNull("first_id");
            root.putNull("last_id");
        } else {
            root.put("first_id", ids.getFirst());
            root.put("last_id", ids.getLast());
        }
        return write(root);
    }

    private static ObjectNode header(Envelope env) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("id", env.id());
        root.put("type", "message");
        root.put("role", "assistant");
        root.put("model", env.model());
        return root;
    }

    // a non-streamed answer must carry an object; broken scripted JSON is sent as a string field
    private static JsonNode inputObject(Reply.ToolUse u) {
        if (u.inputJson().isBlank()) return MAPPER.createObjectNode();
        try {
            JsonNode n = MAPPER.readTree(u.inputJson());
            if (n != null && n.isObject()) return n;
        } catch (JsonProcessingException e) {
            // fall through
        }
        return MAPPER.createObjectNode().put("_raw", u.inputJson());
    }

    private static Event blockStart(int index, ObjectNode block) {
        ObjectNode e =
                MAPPER.createObjectNode().put("type", "content_block_start").put("index", index);
        e.set("content_block", block);
        return event(e);
    }

    private static Event blockDelta(int index, ObjectNode delta) {
        ObjectNode e =
                MAPPER.createObjectNode().put("type", "content_block_delta").put("index", index);
        e.set("delta", delta);
        return event(e);
    }

    private static Event blockStop(int index) {
        return event(MAPPER.createObjectNode().put("type", "content_block_stop").put("index", index));
    }

    private static ObjectNode inputDelta(String partial) {
        return MAPPER.createObjectNode().put("type", "input_json_delta").put("partial_json", partial);
    }

    private static Event event(ObjectNode data) {
        return new Event(data.path("type").asText(), write(data));
    }

    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
