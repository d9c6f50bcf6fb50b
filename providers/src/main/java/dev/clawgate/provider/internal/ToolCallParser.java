package dev.clawgate.provider.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.model.ToolCall;
import java.util.UUID;

/**
 * Makes a {@link ToolCall} from what the model sent. Broken arguments never throw: the call carries a parse error that
 * the agent loop reports back to the model (SPEC AG-1).
 */
public final class ToolCallParser {
    private static final ObjectMapper STRICT =
            new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final int RAW_EXCERPT = 200;

    private ToolCallParser() {}

    public static ToolCall fromText(String id, String name, String arguments, int index) {
        String callId = id == null || id.isBlank() ? generatedId(index) : id;
        if (name == null || name.isBlank()) {
            return new ToolCall(callId, "", null, "the tool call has no function name");
        }
        if (arguments == null || arguments.isBlank()) return new ToolCall(callId, name, null);
        try {
            JsonNode parsed = STRICT.readTree(arguments);
            if (parsed == null || !parsed.isObject()) {
                return new ToolCall(
                        callId, name, null, "the arguments must be a JSON object, got: " + excerpt(arguments));
            }
            return new ToolCall(callId, name, parsed);
        } catch (JsonProcessingException e) {
            return new ToolCall(
                    callId,
                    name,
                    null,
                    "the arguments are not valid JSON (" + e.getOriginalMessage() + "): " + excerpt(arguments));
        }
    }

    /** Some servers send {@code arguments} as an object instead of a string. */
    public static ToolCall fromNode(String id, String name, JsonNode arguments, int index) {
        if (arguments != null && arguments.isObject()) {
            String callId = id == null || id.isBlank() ? generatedId(index) : id;
            if (name == null || name.isBlank())
                return new ToolCall(callId, "", null, "the tool call has no function name");
            return new ToolCall(callId, name, arguments);
        }
        String text = arguments == null || arguments.isNull() || arguments.isMissingNode()
                ? null
                : arguments.isTextual() ? arguments.asText() : arguments.toString();
        return fromText(id, name, text, index);
    }

    private static String generatedId(int index) {
        return "call_" + index + "_" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String excerpt(String raw) {
        return raw.length() <= RAW_EXCERPT ? raw : raw.substring(0, RAW_EXCERPT) + "…";
    }
}
