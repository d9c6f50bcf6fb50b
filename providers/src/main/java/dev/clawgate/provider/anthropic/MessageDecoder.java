package dev.clawgate.provider.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.provider.internal.ToolCallParser;
import java.util.ArrayList;
import java.util.List;

/** Reads a non-streamed Messages API {@code message} object. */
final class MessageDecoder {
    private MessageDecoder() {}

    /** The response, or null when the object is not a message. */
    static ChatResponse decode(JsonNode root) {
        if (!"message".equals(root.path("type").asText())
                || !root.path("content").isArray()) return null;
        StringBuilder text = new StringBuilder();
        StringBuilder thinking = new StringBuilder();
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode block : root.path("content")) {
            switch (block.path("type").asText()) {
                case "text" -> text.append(block.path("text").asText(""));
                case "thinking" -> thinking.append(block.path("thinking").asText(""));
                case "tool_use" ->
                    calls.add(ToolCallParser.fromNode(
                            textOrNull(block.path("id")),
                            textOrNull(block.path("name")),
                            block.path("input"),
                            calls.size()));
                default -> {
                    /* redacted_thinking, server tool blocks: nothing the loop can use */
                }
            }
        }
        return new ChatResponse(
                text.toString(),
                calls,
                thinking.isEmpty() ? null : thinking.toString(),
                usage(root.path("usage")),
                finishReason(textOrNull(root.path("stop_reason"))));
    }

    /** Input tokens include the prompt-cache reads and writes, which the API counts apart. */
    static Usage usage(JsonNode u) {
        if (!u.isObject()) return Usage.NONE;
        long prompt = u.path("input_tokens").asLong(0)
                + u.path("cache_creation_input_tokens").asLong(0)
                + u.path("cache_read_input_tokens").asLong(0);
        return new Usage(prompt, u.path("output_tokens").asLong(0), 0);
    }

    /** The stop reason in the vocabulary the rest of the gateway uses (OpenAI's finish reasons). */
    static String finishReason(String stopReason) {
        if (stopReason == null) return null;
        return switch (stopReason) {
            case "end_turn", "stop_sequence" -> "stop";
            case "tool_use" -> "tool_calls";
            case "max_tokens" -> "length";
            default -> stopReason;
        };
    }

    static String textOrNull(JsonNode n) {
        return n.isTextual() ? n.asText() : null;
    }
}
