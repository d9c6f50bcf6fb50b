package dev.clawgate.core.internal.agent;

import dev.clawgate.core.inspect.Detail;
import dev.clawgate.core.inspect.TurnTrail;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import java.util.List;

/** The agent loop's side of the turn inspector (SPEC OP-8): each model call and each tool call of the current turn. */
final class InspectedCalls {
    /** The arguments of a tool call are kept up to this many characters. */
    static final int MAX_ARGUMENTS = 400;

    private InspectedCalls() {}

    /**
     * One model call attempt (SPEC SP-4): provider, model, request size, tokens, latency, and the error of a failed
     * attempt; {@code route} above 0 is a fallback.
     */
    static void model(
            long startedAt,
            String provider,
            String model,
            int route,
            int attempt,
            ChatRequest request,
            ChatResponse response,
            String outcome) {
        TurnTrail trail = TurnTrail.current();
        if (!trail.active()) return;
        trail.prompt(() -> render(request.messages()));
        trail.span("model", startedAt, () -> {
            Detail d = Detail.of()
                    .put("provider", provider)
                    .put("model", model)
                    .put("fallback", route)
                    .put("attempt", attempt)
                    .put("messages", request.messages().size())
                    .put("request_chars", chars(request.messages()))
                    .put("tools", request.tools().size())
                    .put("outcome", outcome);
            if (response != null) {
                d.put("prompt_tokens", response.usage().promptTokens())
                        .put("completion_tokens", response.usage().completionTokens())
                        .put("reply_chars", response.text().length())
                        .put("tool_calls", response.toolCalls().size())
                        .put("finish", response.finishReason());
            }
            return d;
        });
    }

    /** One tool call: its name, arguments (cut), result size and whether it failed. */
    static void tool(long startedAt, ToolCall call, String result) {
        TurnTrail.current().span("tool", startedAt, () -> {
            String args = call.arguments().toString();
            return Detail.of()
                    .put("name", call.name())
                    .put("arguments", args.length() > MAX_ARGUMENTS ? args.substring(0, MAX_ARGUMENTS) + "…" : args)
                    .put("result_chars", result == null ? 0 : result.length())
                    .put("error", result != null && result.startsWith("Error"));
        });
    }

    private static long chars(List<ChatMessage> messages) {
        long n = 0;
        for (ChatMessage m : messages) n += m.content().length();
        return n;
    }

    private static String render(List<ChatMessage> messages) {
        StringBuilder sb = new StringBuilder();
        for (ChatMessage m : messages) {
            sb.append("--- ")
                    .append(m.role().name().toLowerCase(java.util.Locale.ROOT))
                    .append('\n');
            sb.append(m.content()).append('\n');
        }
        return sb.toString();
    }
}
