package dev.clawgate.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ToolSpec;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Writes a {@link ChatRequest} as an OpenAI chat-completions request body. */
final class ChatRequestEncoder {
    private static final Pattern IMAGE_MARKER = Pattern.compile("\\[IMAGE:([^\\]\\s]+)]");

    private final ObjectMapper json;

    ChatRequestEncoder(ObjectMapper json) {
        this.json = json;
    }

    /** @throws IllegalArgumentException when a message cannot be expressed on the wire */
    ObjectNode encode(ChatRequest request, String model) {
        ObjectNode root = json.createObjectNode();
        root.put("model", model);
        ArrayNode messages = root.putArray("messages");
        for (ChatMessage m : request.messages()) messages.add(message(m));
        if (!request.tools().isEmpty()) {
            ArrayNode tools = root.putArray("tools");
            for (ToolSpec t : request.tools()) tools.add(tool(t));
        }
        if (request.temperature() != null) root.put("temperature", request.temperature());
        root.put("stream", request.stream());
        if (request.stream()) root.putObject("stream_options").put("include_usage", true);
        return root;
    }

    private ObjectNode message(ChatMessage m) {
        ObjectNode out = json.createObjectNode();
        out.put("role", m.role().wireName());
        switch (m.role()) {
            case SYSTEM -> out.put("content", m.content());
            case USER -> out.set("content", userContent(m.content()));
            case ASSISTANT -> {
                if (m.toolCalls().isEmpty()) {
                    out.put("content", m.content());
                } else {
                    if (m.content().isEmpty()) out.putNull("content");
                    else out.put("content", m.content());
                    ArrayNode calls = out.putArray("tool_calls");
                    for (ToolCall c : m.toolCalls()) {
                        ObjectNode call = calls.addObject();
                        call.put("id", c.id());
                        call.put("type", "function");
                        call.putObject("function")
                                .put("name", c.name())
                                .put("arguments", c.arguments().toString());
                    }
                }
            }
            case TOOL -> {
                if (m.toolCallId() == null || m.toolCallId().isBlank()) {
                    throw new IllegalArgumentException("a tool message needs the id of the call it answers");
                }
                out.put("tool_call_id", m.toolCallId());
                out.put("content", m.content());
            }
        }
        return out;
    }

    /**
     * Plain text, or text and image parts when the text carries {@code [IMAGE:...]} markers that already hold a data
     * URI (SPEC AG-4: the pipeline inlines local paths, and remote URLs only when remote fetch is allowed); a URL is
     * never passed on for the API to fetch.
     */
    private JsonNode userContent(String content) {
        Matcher m = IMAGE_MARKER.matcher(content);
        ArrayNode parts = json.createArrayNode();
        int end = 0;
        boolean images = false;
        while (m.find()) {
            String location = m.group(1);
            if (!sendable(location)) continue;
            addText(parts, content.substring(end, m.start()));
            parts.addObject().put("type", "image_url").putObject("image_url").put("url", location);
            end = m.end();
            images = true;
        }
        if (!images) return json.getNodeFactory().textNode(content);
        addText(parts, content.substring(end));
        return parts;
    }

    private static boolean sendable(String location) {
        return location.startsWith("data:image/");
    }

    private static void addText(ArrayNode parts, String text) {
        if (!text.isBlank()) parts.addObject().put("type", "text").put("text", text.strip());
    }

    private ObjectNode tool(ToolSpec t) {
        ObjectNode out = json.createObjectNode();
        out.put("type", "function");
        ObjectNode fn = out.putObject("function");
        fn.put("name", t.name());
        if (t.description() != null) fn.put("description", t.description());
        if (t.parameters() != null && t.parameters().isObject()) {
            fn.set("parameters", t.parameters());
        } else {
            fn.putObject("parameters").put("type", "object").putObject("properties");
        }
        return out;
    }
}
