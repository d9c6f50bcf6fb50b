package dev.clawgate.testkit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/**
 * The checks OpenAI makes before it answers, so a client that builds a request the real API would reject fails against
 * the fake too. Returns an error message, or null when valid.
 */
final class RequestValidation {
    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");

    private RequestValidation() {}

    static String problem(JsonNode body) {
        if (!body.isObject()) return "The request body must be a JSON object.";
        if (!body.path("model").isTextual() || body.path("model").asText().isBlank()) {
            return "you must provide a model parameter";
        }
        JsonNode messages = body.path("messages");
        if (!messages.isArray() || messages.isEmpty()) return "'messages' must be a non-empty array";
        for (int i = 0; i < messages.size(); i++) {
            String p = messageProblem(messages.get(i));
            if (p != null) return "Invalid 'messages[" + i + "]': " + p;
        }
        JsonNode tools = body.path("tools");
        if (!tools.isMissingNode()) {
            if (!tools.isArray()) return "'tools' must be an array";
            for (int i = 0; i < tools.size(); i++) {
                JsonNode t = tools.get(i);
                if (!"function".equals(t.path("type").asText()))
                    return "Invalid 'tools[" + i + "].type': expected 'function'";
                if (!t.path("function").path("name").isTextual())
                    return "Missing required parameter: 'tools[" + i + "].function.name'";
                JsonNode params = t.path("function").path("parameters");
                if (!params.isMissingNode() && !params.isObject())
                    return "Invalid 'tools[" + i + "].function.parameters': expected an object";
            }
        }
        JsonNode stream = body.path("stream");
        if (!stream.isMissingNode() && !stream.isBoolean() && !stream.isNull()) return "'stream' must be a boolean";
        return null;
    }

    private static String messageProblem(JsonNode m) {
        String role = m.path("role").asText("");
        if (!ROLES.contains(role)) return "unknown role '" + role + "'";
        JsonNode content = m.path("content");
        if (!content.isMissingNode() && !content.isNull() && !content.isTextual() && !content.isArray()) {
            return "'content' must be a string or an array of parts";
        }
        switch (role) {
            case "tool" -> {
                if (!m.path("tool_call_id").isTextual()) return "messages with role 'tool' must have a 'tool_call_id'";
            }
            case "assistant" -> {
                JsonNode calls = m.path("tool_calls");
                if (calls.isMissingNode() || calls.isEmpty()) {
                    if (content.isMissingNode() || content.isNull())
                        return "assistant messages need 'content' or 'tool_calls'";
                    break;
                }
                if (!calls.isArray()) return "'tool_calls' must be an array";
                for (JsonNode c : calls) {
                    if (!c.path("id").isTextual()) return "tool call without an 'id'";
                    if (!"function".equals(c.path("type").asText())) return "tool call 'type' must be 'function'";
                    if (!c.path("function").path("name").isTextual()) return "tool call without 'function.name'";
                    if (!c.path("function").path("arguments").isTextual())
                        return "'function.arguments' must be a string";
                }
            }
            default -> {
                if (content.isMissingNode() || content.isNull()) return "'content' is required for role '" + role + "'";
            }
        }
        return null;
    }
}
