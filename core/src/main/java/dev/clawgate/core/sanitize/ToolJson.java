package dev.clawgate.core.sanitize;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Tells tool-protocol JSON that leaked into a reply from JSON that is the user's content
 * (SPEC RP-2): a call counts only when every tool it names is registered.
 */
final class ToolJson {
    /** What a piece of JSON is, as far as the reply is concerned. */
    enum Kind { CONTENT, CALL, RESULT }

    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** A tool-result envelope: protocol even when cut off, whatever tool it answers. */
    private static final Pattern RESULT_ENVELOPE = Pattern.compile("^\\{\\s*\"tool_call_id\"\\s*:");

    private ToolJson() {
    }

    /**
     * Classifies one isolated piece of JSON text. After a call was seen in the same reply, an
     * object with a {@code result}, {@code output} or {@code error} field is that call's result.
     */
    static Kind classify(String text, Set<String> registered, boolean afterCall) {
        String t = text.strip();
        if (t.isEmpty() || (t.charAt(0) != '{' && t.charAt(0) != '[')) return Kind.CONTENT;
        if (RESULT_ENVELOPE.matcher(t).find()) return Kind.RESULT;
        JsonNode node;
        try {
            node = JSON.readTree(t);
        } catch (JsonProcessingException e) {
            return Kind.CONTENT; // not JSON: the user's text
        }
        List<String> names = callNames(node);
        if (!names.isEmpty() && registered.containsAll(names)) return Kind.CALL;
        if (afterCall && names.isEmpty() && node.isObject()
                && (node.has("result") || node.has("output") || node.has("error"))) {
            return Kind.RESULT;
        }
        return Kind.CONTENT;
    }

    /** The tool names a call payload names; empty when the JSON is not a call payload at all. */
    static List<String> callNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        if (node.isObject() && node.path("tool_calls").isArray()) node = node.get("tool_calls");
        if (node.isArray()) {
            for (JsonNode element : node) {
                String n = callName(element);
                if (n == null) return List.of();
                names.add(n);
            }
            return names;
        }
        String n = callName(node);
        return n == null ? List.of() : List.of(n);
    }

    private static String callName(JsonNode o) {
        if (!o.isObject()) return null;
        JsonNode fn = o.get("function");
        if (fn != null && fn.isObject() && fn.path("name").isTextual()) return fn.get("name").asText();
        if (!o.path("name").isTextual()) return null;
        boolean shaped = o.has("arguments") || o.has("parameters") || "function_call".equals(o.path("type").asText());
        return shaped ? o.get("name").asText() : null;
    }
}
