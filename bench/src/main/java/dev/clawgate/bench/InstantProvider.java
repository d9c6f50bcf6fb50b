package dev.clawgate.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderCapabilities;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.core.run.CancelToken;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A model that answers at once, in process: what is left of a turn's cost is the gateway's own. Every
 * {@code toolEvery}-th turn it first asks natively for {@link LookupTool} and answers after the result arrives, so the
 * tool path (two model calls, a tool run) is measured too.
 */
public final class InstantProvider implements Provider {
    public static final String NAME = "instant";
    public static final String MODEL = "instant-1";
    /** The reply of a turn without a tool call. */
    public static final String REPLY = "Sure, here is a short answer from the instant model.";
    /** The prefix of the reply that follows a tool result; the result itself comes after it. */
    public static final String TOOL_REPLY_PREFIX = "The lookup said: ";

    private static final Usage USAGE = new Usage(120, 12, 0);

    private final int toolEvery;
    private final AtomicLong turns = new AtomicLong();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong toolCalls = new AtomicLong();
    private final AtomicInteger inCall = new AtomicInteger();
    private final AtomicInteger maxInCall = new AtomicInteger();

    /** @param toolEvery ask for the tool on every n-th turn; 0 never */
    public InstantProvider(int toolEvery) {
        if (toolEvery < 0)
            throw new IllegalArgumentException("toolEvery must be 0 (never) or positive, got " + toolEvery);
        this.toolEvery = toolEvery;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ProviderCapabilities capabilities() {
        return new ProviderCapabilities(true, false, true);
    }

    @Override
    public ChatResponse chat(ChatRequest request, StreamObserver observer, CancelToken cancel) {
        cancel.throwIfCancelled();
        calls.incrementAndGet();
        maxInCall.accumulateAndGet(inCall.incrementAndGet(), Math::max);
        try {
            return respond(request, observer);
        } finally {
            inCall.decrementAndGet();
        }
    }

    private ChatResponse respond(ChatRequest request, StreamObserver observer) {
        List<ChatMessage> messages = request.messages();
        if (messages.isEmpty()) throw new IllegalArgumentException("a chat request needs at least one message");
        ChatMessage last = messages.get(messages.size() - 1);
        if (last.role() == Role.TOOL) {
            return answer(TOOL_REPLY_PREFIX + last.content(), request, observer);
        }
        long turn = turns.incrementAndGet();
        if (toolEvery > 0 && turn % toolEvery == 0) {
            toolCalls.incrementAndGet();
            var args = JsonNodeFactory.instance.objectNode().put(LookupTool.KEY, LookupTool.SAMPLE_KEY);
            ToolCall call = new ToolCall("call_" + turn, LookupTool.NAME, args);
            return new ChatResponse("", List.of(call), null, USAGE, "tool_calls");
        }
        return answer(REPLY, request, observer);
    }

    private static ChatResponse answer(String text, ChatRequest request, StreamObserver observer) {
        if (request.stream()) observer.onTextDelta(text);
        return new ChatResponse(text, List.of(), null, USAGE, "stop");
    }

    /** Model calls so far, tool-result follow-ups included. */
    public long calls() {
        return calls.get();
    }

    /** The most model calls that were ever in progress at once. */
    public int maxConcurrentCalls() {
        return maxInCall.get();
    }

    /** Turns on which the model asked for the tool. */
    public long toolCalls() {
        return toolCalls.get();
    }
}
