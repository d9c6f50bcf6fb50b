package dev.clawgate.provider.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.provider.internal.ToolCallParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds one answer out of the Messages API's stream events: text and thinking deltas go to the observer as they come;
 * {@code input_json_delta} fragments are joined per content block.
 */
final class MessageStreamAssembler {
    private final StreamObserver observer;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder thinking = new StringBuilder();
    private final Map<Integer, PartialCall> calls = new TreeMap<>();
    private long inputTokens;
    private long outputTokens;
    private String stopReason;
    private boolean stopped;

    MessageStreamAssembler(StreamObserver observer) {
        this.observer = observer;
    }

    private static final class PartialCall {
        String id;
        String name;
        JsonNode startInput;
        final StringBuilder json = new StringBuilder();
    }

    /** One event's data; {@code error} events are the caller's to handle. */
    void accept(JsonNode event) {
        switch (event.path("type").asText()) {
            case "message_start" -> {
                JsonNode usage = event.path("message").path("usage");
                Usage u = MessageDecoder.usage(usage);
                inputTokens = u.promptTokens();
                outputTokens = u.completionTokens();
            }
            case "content_block_start" -> start(event.path("index").asInt(-1), event.path("content_block"));
            case "content_block_delta" -> delta(event.path("index").asInt(-1), event.path("delta"));
            case "message_delta" -> {
                String reason = MessageDecoder.textOrNull(event.path("delta").path("stop_reason"));
                if (reason != null) stopReason = reason;
                // the usage here is cumulative
                JsonNode usage = event.path("usage");
                if (usage.has("output_tokens"))
                    outputTokens = usage.path("output_tokens").asLong(outputTokens);
                if (usage.has("input_tokens"))
                    inputTokens = MessageDecoder.usage(usage).promptTokens();
            }
            case "message_stop" -> stopped = true;
            default -> {
                /* ping, content_block_stop and event types added later */
            }
        }
    }

    /** True once {@code message_stop} arrived. */
    boolean finished() {
        return stopped;
    }

    ChatResponse response() {
        List<ToolCall> done = new ArrayList<>();
        for (PartialCall p : calls.values()) {
            int i = done.size();
            done.add(
                    p.json.isEmpty()
                            ? ToolCallParser.fromNode(p.id, p.name, p.startInput, i)
                            : ToolCallParser.fromText(p.id, p.name, p.json.toString(), i));
        }
        return new ChatResponse(
                text.toString(),
                done,
                thinking.isEmpty() ? null : thinking.toString(),
                new Usage(inputTokens, outputTokens, 0),
                MessageDecoder.finishReason(stopReason));
    }

    private void start(int index, JsonNode block) {
        switch (block.path("type").asText()) {
            case "text" -> appendText(block.path("text").asText(""));
            case "thinking" -> appendThinking(block.path("thinking").asText(""));
            case "tool_use" -> {
                PartialCall call = calls.computeIfAbsent(index, i -> new PartialCall());
                call.id = MessageDecoder.textOrNull(block.path("id"));
                call.name = MessageDecoder.textOrNull(block.path("name"));
                JsonNode input = block.path("input");
                call.startInput = input.isObject() && !input.isEmpty() ? input : null;
            }
            default -> {}
        }
    }

    private void delta(int index, JsonNode delta) {
        switch (delta.path("type").asText()) {
            case "text_delta" -> appendText(delta.path("text").asText(""));
            case "thinking_delta" -> appendThinking(delta.path("thinking").asText(""));
            case "input_json_delta" -> {
                PartialCall call = calls.get(index);
                if (call != null) call.json.append(delta.path("partial_json").asText(""));
            }
            default -> {
                /* signature_delta, citations_delta */
            }
        }
    }

    private void appendText(String s) {
        if (s.isEmpty()) return;
        text.append(s);
        observer.onTextDelta(s);
    }

    private void appendThinking(String s) {
        if (s.isEmpty()) return;
        thinking.append(s);
        observer.onReasoningDelta(s);
    }
}
