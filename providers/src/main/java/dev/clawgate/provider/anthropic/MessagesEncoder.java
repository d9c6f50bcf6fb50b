package dev.clawgate.provider.anthropic;

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
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a {@link ChatRequest} as an Anthropic Messages request body: system messages become the top-level
 * {@code system}, tool results become {@code tool_result} blocks of a user message, and consecutive messages of one
 * role are merged so roles alternate.
 */
final class MessagesEncoder {
    private static final Pattern IMAGE_MARKER = Pattern.compile("\\[IMAGE:([^\\]\\s]+)]");
    private static final Pattern DATA_URI = Pattern.compile("data:(image/[a-z+.-]+);base64,([A-Za-z0-9+/=]+)");
    private static final Set<String> MEDIA_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");
    // the agent loop's convention for a failed tool (AgentLoop.runTool)
    private static final String TOOL_ERROR_PREFIX = "Error: ";

    private final ObjectMapper json;

    MessagesEncoder(ObjectMapper json) {
        this.json = json;
    }

    /** One wire message under construction. */
    private record Turn(String role, List<ObjectNode> blocks) {}

    /** @throws IllegalArgumentException when a message cannot be expressed on the wire */
    ObjectNode encode(ChatRequest request, String model, int maxTokens) {
        ObjectNode root = json.createObjectNode();
        root.put("model", model);
        root.put("max_tokens", maxTokens);
        List<String> system = new ArrayList<>();
        List<Turn> turns = new ArrayList<>();
        for (ChatMessage m : request.messages()) {
            if (m.role() == Role.SYSTEM) {
                if (!m.content().isBlank()) system.add(m.content());
                continue;
            }
            Turn t = turn(m);
            if (t.blocks().isEmpty()) continue;
            Turn last = turns.isEmpty() ? null : turns.getLast();
            if (last != null && last.role().equals(t.role())) last.blocks().addAll(t.blocks());
            else turns.add(t);
        }
        if (!system.isEmpty()) root.put("system", String.join("\n\n", system));
        ArrayNode messages = root.putArray("messages");
        for (Turn t : turns) {
            ObjectNode m = messages.addObject();
            m.put("role", t.role());
            m.putArray("content").addAll(toolResultsFirst(t.blocks()));
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = root.putArray("tools");
            for (ToolSpec spec : request.tools()) tools.add(tool(spec));
        }
        if (request.temperature() != null) root.put("temperature", request.temperature());
        root.put("stream", request.stream());
        return root;
    }

    private Turn turn(ChatMessage m) {
        List<ObjectNode> blocks = new ArrayList<>();
        switch (m.role()) {
            case USER -> {
                contentBlocks(m.content(), blocks);
                return new Turn("user", blocks);
            }
            case ASSISTANT -> {
                // the API refuses a final assistant text that ends in whitespace
                String text = m.content().stripTrailing();
                if (!text.isBlank()) blocks.add(text(text));
                for (ToolCall c : m.toolCalls()) {
                    ObjectNode use = json.createObjectNode();
                    use.put("type", "tool_use");
                    use.put("id", c.id());
                    use.put("name", c.name());
                    use.set("input", c.arguments().isObject() ? c.arguments() : json.createObjectNode());
                    blocks.add(use);
                }
                return new Turn("assistant", blocks);
            }
            case TOOL -> {
                if (m.toolCallId() == null || m.toolCallId().isBlank()) {
                    throw new IllegalArgumentException("a tool message needs the id of the call it answers");
                }
                ObjectNode result = json.createObjectNode();
                result.put("type", "tool_result");
                result.put("tool_use_id", m.toolCallId());
                List<ObjectNode> parts = new ArrayList<>();
                contentBlocks(m.content(), parts);
                boolean onlyText = parts.stream()
                        .allMatch(p -> "text".equals(p.path("type").asText()));
                if (onlyText && !m.content().isBlank()) result.put("content", m.content());
                else if (!parts.isEmpty()) result.putArray("content").addAll(parts);
                if (m.content().startsWith(TOOL_ERROR_PREFIX)) result.put("is_error", true);
                blocks.add(result);
                return new Turn("user", blocks);
            }
            default -> throw new IllegalArgumentException("unexpected role " + m.role());
        }
    }

    /**
     * Text and image blocks: {@code [IMAGE:...]} markers that hold a base64 data URI of a type the API takes become
     * image blocks (SPEC AG-4: the pipeline inlined local paths, and remote URLs only when remote fetch is allowed);
     * any other marker stays text.
     */
    private void contentBlocks(String content, List<ObjectNode> out) {
        Matcher m = IMAGE_MARKER.matcher(content);
        int end = 0;
        while (m.find()) {
            ObjectNode source = imageSource(m.group(1));
            if (source == null) continue;
            addText(content.substring(end, m.start()), out);
            ObjectNode image = json.createObjectNode();
            image.put("type", "image");
            image.set("source", source);
            out.add(image);
            end = m.end();
        }
        addText(content.substring(end), out);
    }

    private ObjectNode imageSource(String location) {
        ObjectNode source = json.createObjectNode();
        Matcher data = DATA_URI.matcher(location);
        if (data.matches()) {
            if (!MEDIA_TYPES.contains(data.group(1))) return null;
            return source.put("type", "base64").put("media_type", data.group(1)).put("data", data.group(2));
        }
        // a URL is never handed to the API to fetch: remote images are fetched, checked and inlined
        // by the pipeline only when multimodal.allow_remote_fetch says so (SPEC AG-4); otherwise it stays text
        return null;
    }

    // the API refuses empty text blocks
    private void addText(String text, List<ObjectNode> out) {
        if (!text.isBlank()) out.add(text(text.strip()));
    }

    private ObjectNode text(String text) {
        return json.createObjectNode().put("type", "text").put("text", text);
    }

    // in a user message that answers tool calls, the results must come before any text
    private static List<ObjectNode> toolResultsFirst(List<ObjectNode> blocks) {
        List<ObjectNode> out = new ArrayList<>(blocks.size());
        for (ObjectNode b : blocks) if ("tool_result".equals(b.path("type").asText())) out.add(b);
        for (ObjectNode b : blocks) if (!"tool_result".equals(b.path("type").asText())) out.add(b);
        return out;
    }

    private ObjectNode tool(ToolSpec t) {
        ObjectNode out = json.createObjectNode();
        out.put("name", t.name());
        if (t.description() != null && !t.description().isBlank()) out.put("description", t.description());
        JsonNode schema = t.parameters();
        if (schema != null && schema.isObject()) {
            out.set("input_schema", schema);
        } else {
            out.putObject("input_schema").put("type", "object").putObject("properties");
        }
        return out;
    }
}
