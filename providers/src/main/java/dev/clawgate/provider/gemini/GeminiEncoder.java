package dev.clawgate.provider.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ToolSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a {@link ChatRequest} as a {@code GenerateContentRequest}: system messages become the
 * {@code systemInstruction}; user and assistant messages {@code contents} of roles {@code user} and {@code model}; tool
 * calls {@code functionCall} parts and tool results {@code functionResponse} parts of a user turn;
 * {@code [IMAGE:data:...]} markers {@code inlineData} parts; tools one {@code functionDeclarations} list. Consecutive
 * turns of one role are merged so roles alternate.
 */
final class GeminiEncoder {
    private static final Pattern IMAGE_MARKER = Pattern.compile("\\[IMAGE:([^\\]\\s]+)]");
    private static final Pattern DATA_URI = Pattern.compile("data:(image/[a-z+.-]+);base64,([A-Za-z0-9+/=]+)");
    // the image types the API reads (image understanding)
    private static final Set<String> MIME_TYPES =
            Set.of("image/png", "image/jpeg", "image/webp", "image/heic", "image/heif");
    // the agent loop's convention for a failed tool (AgentLoop.runTool)
    private static final String TOOL_ERROR_PREFIX = "Error: ";

    private final ObjectMapper json;
    private final ThoughtSignatures signatures;

    GeminiEncoder(ObjectMapper json, ThoughtSignatures signatures) {
        this.json = json;
        this.signatures = signatures;
    }

    private record Turn(String role, List<ObjectNode> parts) {}

    /** @throws IllegalArgumentException when a message cannot be expressed on the wire */
    ObjectNode encode(ChatRequest request, Integer maxTokens) {
        ObjectNode root = json.createObjectNode();
        List<String> system = new ArrayList<>();
        List<Turn> turns = new ArrayList<>();
        Map<String, String> callNames = new HashMap<>();
        for (ChatMessage m : request.messages()) {
            if (m.role() == Role.SYSTEM) {
                if (!m.content().isBlank()) system.add(m.content());
                continue;
            }
            for (ToolCall c : m.toolCalls()) callNames.put(c.id(), c.name());
            Turn t = turn(m, callNames);
            if (t.parts().isEmpty()) continue;
            Turn last = turns.isEmpty() ? null : turns.getLast();
            if (last != null && last.role().equals(t.role())) last.parts().addAll(t.parts());
            else turns.add(t);
        }
        if (turns.isEmpty()) throw new IllegalArgumentException("the request has no user or model content");
        if (!system.isEmpty()) {
            root.putObject("systemInstruction").putArray("parts").addObject().put("text", String.join("\n\n", system));
        }
        ArrayNode contents = root.putArray("contents");
        for (Turn t : turns) {
            ObjectNode c = contents.addObject();
            c.put("role", t.role());
            c.putArray("parts").addAll(responsesFirst(t.parts()));
        }
        if (!request.tools().isEmpty()) {
            ArrayNode declarations = root.putArray("tools").addObject().putArray("functionDeclarations");
            for (ToolSpec spec : request.tools()) declarations.add(declaration(spec));
        }
        if (request.temperature() != null || maxTokens != null) {
            ObjectNode config = root.putObject("generationConfig");
            if (request.temperature() != null) config.put("temperature", request.temperature());
            if (maxTokens != null) config.put("maxOutputTokens", maxTokens);
        }
        return root;
    }

    private Turn turn(ChatMessage m, Map<String, String> callNames) {
        List<ObjectNode> parts = new ArrayList<>();
        switch (m.role()) {
            case USER -> {
                contentParts(m.content(), parts);
                return new Turn("user", parts);
            }
            case ASSISTANT -> {
                if (!m.content().isBlank()) parts.add(text(m.content()));
                for (ToolCall c : m.toolCalls()) parts.add(functionCall(c));
                return new Turn("model", parts);
            }
            case TOOL -> {
                if (m.toolCallId() == null || m.toolCallId().isBlank()) {
                    throw new IllegalArgumentException("a tool message needs the id of the call it answers");
                }
                String name = m.name() != null && !m.name().isBlank() ? m.name() : callNames.get(m.toolCallId());
                if (name == null)
                    throw new IllegalArgumentException("a tool result answers no function call of this conversation");
                ObjectNode response = json.createObjectNode();
                ObjectNode fr = response.putObject("functionResponse");
                ThoughtSignatures.Origin origin = signatures.of(m.toolCallId());
                if (origin != null && origin.idFromApi()) fr.put("id", m.toolCallId());
                fr.put("name", name);
                // the response must be an object: the result under "output", a failure under "error"
                boolean failed = m.content().startsWith(TOOL_ERROR_PREFIX);
                fr.putObject("response").put(failed ? "error" : "output", m.content());
                parts.add(response);
                // images a tool produced go along as parts of the same turn
                List<ObjectNode> images = new ArrayList<>();
                contentParts(m.content(), images);
                for (ObjectNode p : images) if (p.has("inlineData")) parts.add(p);
                return new Turn("user", parts);
            }
            default -> throw new IllegalArgumentException("unexpected role " + m.role());
        }
    }

    private ObjectNode functionCall(ToolCall c) {
        ObjectNode part = json.createObjectNode();
        ObjectNode call = part.putObject("functionCall");
        ThoughtSignatures.Origin origin = signatures.of(c.id());
        if (origin != null && origin.idFromApi()) call.put("id", c.id());
        call.put("name", c.name());
        call.set("args", c.arguments().isObject() ? c.arguments() : json.createObjectNode());
        if (origin != null && origin.signature() != null) part.put("thoughtSignature", origin.signature());
        return part;
    }

    /**
     * Text and {@code inlineData} parts: {@code [IMAGE:...]} markers holding a base64 data URI of a type the API reads
     * become images (SPEC AG-4: the pipeline inlined local paths, and remote URLs only when allowed); any other marker
     * stays text.
     */
    private void contentParts(String content, List<ObjectNode> out) {
        Matcher m = IMAGE_MARKER.matcher(content);
        int end = 0;
        while (m.find()) {
            Matcher data = DATA_URI.matcher(m.group(1));
            if (!data.matches() || !MIME_TYPES.contains(data.group(1))) continue;
            addText(content.substring(end, m.start()), out);
            ObjectNode part = json.createObjectNode();
            part.putObject("inlineData").put("mimeType", data.group(1)).put("data", data.group(2));
            out.add(part);
            end = m.end();
        }
        addText(content.substring(end), out);
    }

    private void addText(String s, List<ObjectNode> out) {
        if (!s.isBlank()) out.add(text(s.strip()));
    }

    private ObjectNode text(String s) {
        return json.createObjectNode().put("text", s);
    }

    // a turn answering function calls holds the responses first, as the calls came
    private static List<ObjectNode> responsesFirst(List<ObjectNode> parts) {
        List<ObjectNode> out = new ArrayList<>(parts.size());
        for (ObjectNode p : parts) if (p.has("functionResponse")) out.add(p);
        for (ObjectNode p : parts) if (!p.has("functionResponse")) out.add(p);
        return out;
    }

    private ObjectNode declaration(ToolSpec t) {
        ObjectNode out = json.createObjectNode();
        out.put("name", t.name());
        if (t.description() != null && !t.description().isBlank()) out.put("description", t.description());
        JsonNode schema = t.parameters();
        // parametersJsonSchema takes a JSON Schema as is (parameters takes only the OpenAPI subset)
        if (schema != null && schema.isObject() && !schema.isEmpty()) out.set("parametersJsonSchema", schema);
        return out;
    }
}
