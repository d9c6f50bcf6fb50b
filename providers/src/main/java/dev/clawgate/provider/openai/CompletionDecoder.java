package dev.clawgate.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.provider.internal.ToolCallParser;
import java.util.ArrayList;
import java.util.List;

/** Reads a non-streamed {@code chat.completion} object. */
final class CompletionDecoder {
    private CompletionDecoder() {}

    /** The response, or null when the object has no choice to read. */
    static ChatResponse decode(JsonNode root) {
        JsonNode choice = root.path("choices").path(0);
        if (!choice.isObject()) return null;
        JsonNode message = choice.path("message");
        List<ToolCall> calls = new ArrayList<>();
        JsonNode rawCalls = message.path("tool_calls");
        for (int i = 0; i < rawCalls.size(); i++) {
            JsonNode c = rawCalls.get(i);
            JsonNode fn = c.path("function");
            calls.add(ToolCallParser.fromNode(
                    textOrNull(c.path("id")), textOrNull(fn.path("name")), fn.path("arguments"), i));
        }
        String reasoning = textOrNull(message.path("reasoning_content"));
        if (reasoning == null) reasoning = textOrNull(message.path("reasoning"));
        return new ChatResponse(
                content(message.path("content")),
                calls,
                reasoning,
                usage(root.path("usage")),
                textOrNull(choice.path("finish_reason")));
    }

    /** Content is a string, null, or (some servers) an array of {@code {type: text, text}} parts. */
    private static String content(JsonNode content) {
        if (content.isTextual()) return content.asText();
        if (!content.isArray()) return "";
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : content) {
            if (part.path("text").isTextual()) sb.append(part.path("text").asText());
        }
        return sb.toString();
    }

    static Usage usage(JsonNode u) {
        if (!u.isObject()) return Usage.NONE;
        return new Usage(
                u.path("prompt_tokens").asLong(0),
                u.path("completion_tokens").asLong(0),
                u.path("completion_tokens_details").path("reasoning_tokens").asLong(0));
    }

    static String textOrNull(JsonNode n) {
        return n.isTextual() ? n.asText() : null;
    }
}
