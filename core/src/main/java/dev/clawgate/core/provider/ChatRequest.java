package dev.clawgate.core.provider;

import dev.clawgate.core.model.ChatMessage;
import java.util.List;
import java.util.Objects;

/**
 * One model call. {@code tools} is sent natively only when the provider supports native tools; otherwise the prompt
 * already carries the tool protocol (SPEC SP-3) and tools is empty.
 *
 * @param stream ask for a streamed answer (deltas go to the {@link StreamObserver})
 */
public record ChatRequest(
        String model, List<ChatMessage> messages, List<ToolSpec> tools, boolean stream, Double temperature) {
    public ChatRequest {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
    }
}
