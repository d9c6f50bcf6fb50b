package dev.clawgate.core.internal.toolcall;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.internal.toolcall.Segment.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * JSON written without markup (SPEC AG-1, RP-2): a call envelope ({@code tool_calls}, {@code toolcalls},
 * {@code function_call}), a call object ({@code name} with {@code arguments} or {@code parameters}), a tool-result
 * envelope, or the user's content. Markup-less JSON is a call only when every tool it names is registered (or, for a
 * parser not told the registry, when an envelope key says so); an envelope's {@code content} stays visible.
 */
final class Envelopes {
    /** What a JSON text is: its kind, the calls it holds and the text to show. */
    record Classified(Kind kind, List<RawCall> calls, String shown) {}

    private static final Classified TEXT = new Classified(Kind.TEXT, List.of(), "");
    private static final Pattern RESULT_ENVELOPE = Pattern.compile("\\{\\s*\"tool_call_id\"\\s*:");
    private static final Pattern CALL_ENVELOPE =
            Pattern.compile("\\{\\s*\"(?:tool_calls|toolcalls|function_call)\"\\s*:");
    private static final List<String> ENVELOPE_KEYS = List.of("tool_calls", "toolcalls", "function_call");

    private Envelopes() {}

    /** A tool-result envelope starts at {@code from}: protocol even when cut off. */
    static boolean startsResultEnvelope(CharSequence b, int from, int limit) {
        return RESULT_ENVELOPE
                .matcher(b)
                .region(from, Math.min(limit, from + 64))
                .lookingAt();
    }

    /** A call envelope starts at {@code from}: protocol even when it is cut off before it closes. */
    static boolean startsCallEnvelope(CharSequence b, int from, int limit) {
        return CALL_ENVELOPE.matcher(b).region(from, Math.min(limit, from + 64)).lookingAt();
    }

    static Classified classify(String json, Set<String> registered, boolean afterCall) {
        String t = json.strip();
        if (t.isEmpty() || (t.charAt(0) != '{' && t.charAt(0) != '[')) return TEXT;
        if (startsResultEnvelope(t, 0, t.length())) return new Classified(Kind.RESULT, List.of(), "");
        JsonNode node;
        try {
            node = CallBodyReader.JSON.readTree(t);
        } catch (JsonProcessingException e) {
            return TEXT; // not JSON: the user's text
        }
        JsonNode calls = envelopeCalls(node);
        boolean explicit = calls != null;
        JsonNode payload = explicit ? calls : node;
        List<String> names = callNames(payload);
        boolean isCall = !names.isEmpty() && (registered == null ? explicit : registered.containsAll(names));
        if (isCall) {
            JsonNode content = node.isObject() ? node.get("content") : null;
            String shown = content != null && content.isTextual() ? content.asText() : "";
            return new Classified(Kind.CALL, CallBodyReader.fromJson(payload), shown);
        }
        if (afterCall
                && names.isEmpty()
                && node.isObject()
                && (node.has("result") || node.has("output") || node.has("error"))) {
            return new Classified(Kind.RESULT, List.of(), "");
        }
        return TEXT;
    }

    /** The calls of an envelope object, or null when the JSON is not one. */
    static JsonNode envelopeCalls(JsonNode node) {
        if (!node.isObject()) return null;
        for (String key : ENVELOPE_KEYS) {
            JsonNode v = node.get(key);
            if (v != null && (v.isArray() && !v.isEmpty() || v.isObject())) return v;
        }
        return null;
    }

    /** The tool names a call payload names; empty when the JSON is not a call payload at all. */
    static List<String> callNames(JsonNode node) {
        List<String> names = new ArrayList<>();
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
        if (fn != null && fn.isObject() && fn.path("name").isTextual())
            return CallBodyReader.canonicalName(fn.get("name").asText());
        if (!o.path("name").isTextual()) return null;
        boolean shaped = o.has("arguments")
                || o.has("parameters")
                || "function_call".equals(o.path("type").asText());
        return shaped ? CallBodyReader.canonicalName(o.get("name").asText()) : null;
    }

    /**
     * The calls a {@code <tools>} block invokes, or null when it declares tools instead (SPEC AG-1: a declaration —
     * descriptions, parameter schemas, no arguments — never runs).
     */
    static List<RawCall> invocation(String body) {
        String t = body.strip();
        if (t.isEmpty() || (t.charAt(0) != '{' && t.charAt(0) != '[')) return null;
        JsonNode node;
        try {
            node = CallBodyReader.JSON.readTree(t);
        } catch (JsonProcessingException e) {
            return null;
        }
        JsonNode items = node.isArray() ? node : null;
        if (items == null) {
            items = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                    .arrayNode()
                    .add(node);
        }
        if (items.isEmpty()) return null;
        for (JsonNode item : items) {
            if (!isInvocation(item)) return null;
        }
        return CallBodyReader.fromJson(node);
    }

    private static boolean isInvocation(JsonNode o) {
        if (!o.isObject()) return false;
        JsonNode target = o.path("function").isObject() ? o.get("function") : o;
        if (target.has("description") || o.has("description")) return false;
        if (!target.path("name").isTextual()) return false;
        JsonNode args = target.get("arguments");
        return args != null && (args.isObject() || args.isTextual());
    }
}
