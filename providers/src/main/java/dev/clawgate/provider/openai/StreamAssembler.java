package dev.clawgate.provider.openai;

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
 * Builds one answer out of {@code chat.completion.chunk}s: passes text and reasoning deltas to the observer as they
 * come and joins tool-call fragments by their index.
 */
final class StreamAssembler {
    private final StreamObserver observer;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final Map<Integer, PartialCall> calls = new TreeMap<>();
    private Usage usage = Usage.NONE;
    private String finishReason;
    private int lastIndex = -1;

    StreamAssembler(StreamObserver observer) {
        this.observer = observer;
    }

    private static final class PartialCall {
        String id;
        String name;
        final StringBuilder arguments = new StringBuilder();
    }

    void accept(JsonNode chunk) {
        if (chunk.path("usage").isObject()) usage = CompletionDecoder.usage(chunk.path("usage"));
        JsonNode choice = chunk.path("choices").path(0);
        if (!choice.isObject()) return;
        JsonNode delta = choice.path("delta");
        String content = CompletionDecoder.textOrNull(delta.path("content"));
        if (content != null && !content.isEmpty()) {
            text.append(content);
            observer.onTextDelta(content);
        }
        String thought = CompletionDecoder.textOrNull(delta.path("reasoning_content"));
        if (thought == null) thought = CompletionDecoder.textOrNull(delta.path("reasoning"));
        if (thought != null && !thought.isEmpty()) {
            reasoning.append(thought);
            observer.onReasoningDelta(thought);
        }
        for (JsonNode fragment : delta.path("tool_calls")) mergeCall(fragment);
        String finish = CompletionDecoder.textOrNull(choice.path("finish_reason"));
        if (finish != null) finishReason = finish;
    }

    /** True once a chunk carried a finish reason. */
    boolean finished() {
        return finishReason != null;
    }

    ChatResponse response() {
        List<ToolCall> done = new ArrayList<>();
        for (Map.Entry<Integer, PartialCall> e : calls.entrySet()) {
            PartialCall p = e.getValue();
            done.add(ToolCallParser.fromText(p.id, p.name, p.arguments.toString(), e.getKey()));
        }
        return new ChatResponse(
                text.toString(), done, reasoning.isEmpty() ? null : reasoning.toString(), usage, finishReason);
    }

    // servers without an index continue the last call unless a new id starts another
    private void mergeCall(JsonNode fragment) {
        int index;
        if (fragment.path("index").canConvertToInt()) {
            index = fragment.path("index").asInt();
        } else {
            String id = CompletionDecoder.textOrNull(fragment.path("id"));
            PartialCall last = calls.get(lastIndex);
            boolean startsNew = last == null || (id != null && last.id != null && !id.equals(last.id));
            index = startsNew ? lastIndex + 1 : lastIndex;
        }
        lastIndex = index;
        PartialCall call = calls.computeIfAbsent(index, i -> new PartialCall());
        String id = CompletionDecoder.textOrNull(fragment.path("id"));
        if (call.id == null && id != null && !id.isEmpty()) call.id = id;
        JsonNode fn = fragment.path("function");
        String name = CompletionDecoder.textOrNull(fn.path("name"));
        if (call.name == null && name != null && !name.isEmpty()) call.name = name;
        JsonNode args = fn.path("arguments");
        if (args.isTextual()) call.arguments.append(args.asText());
        else if (args.isObject()) call.arguments.append(args);
    }
}
