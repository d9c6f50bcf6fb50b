package dev.clawgate.core.provider;

import dev.clawgate.core.model.ToolCall;
import java.util.List;

/**
 * A model's answer: text (possibly with prompt-guided tool-call tags still in it), native tool calls, reasoning text if
 * the provider separated it, and usage.
 */
public record ChatResponse(String text, List<ToolCall> toolCalls, String reasoning, Usage usage, String finishReason) {
    public ChatResponse {
        text = text == null ? "" : text;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        usage = usage == null ? Usage.NONE : usage;
    }

    public static ChatResponse text(String text) {
        return new ChatResponse(text, List.of(), null, Usage.NONE, "stop");
    }
}
