package dev.clawgate.provider.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.provider.Usage;
import dev.clawgate.provider.internal.ProviderErrors;
import dev.clawgate.provider.internal.ToolCallParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One answer built from {@code GenerateContentResponse}s: the whole body, or the chunks of a stream in turn (text parts
 * are deltas; the last chunk carries the finish reason and the usage). A blocked prompt or a safety stop becomes a
 * clear error instead of an empty reply.
 */
final class GeminiAnswer {
    // finish reasons that mean the content was withheld, and how the error words each
    private static final Map<String, String> WITHHELD = Map.of(
            "SAFETY", "the answer was withheld by the model's safety filter",
            "IMAGE_SAFETY", "the generated image was withheld by the model's safety filter",
            "PROHIBITED_CONTENT", "the answer was withheld: it was flagged as prohibited content",
            "BLOCKLIST", "the answer was withheld: it contained a blocklisted term",
            "SPII", "the answer was withheld: it contained sensitive personal information",
            "RECITATION", "the answer was withheld: it recited copyrighted material",
            "LANGUAGE", "the model cannot answer in this language");

    private final StreamObserver observer;
    private final ThoughtSignatures signatures;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder thoughts = new StringBuilder();
    private final List<ToolCall> calls = new ArrayList<>();
    private Usage usage = Usage.NONE;
    private String finishReason;
    private String finishMessage;
    private String blockReason;
    private boolean sawCandidate;

    GeminiAnswer(StreamObserver observer, ThoughtSignatures signatures) {
        this.observer = observer;
        this.signatures = signatures;
    }

    /** One response object (a whole answer, or one streamed chunk). */
    void accept(JsonNode response) {
        JsonNode feedback = response.path("promptFeedback");
        if (feedback.path("blockReason").isTextual())
            blockReason = feedback.path("blockReason").asText();
        JsonNode candidate = response.path("candidates").path(0);
        if (candidate.isObject()) {
            sawCandidate = true;
            for (JsonNode part : candidate.path("content").path("parts")) part(part);
            if (candidate.path("finishReason").isTextual())
                finishReason = candidate.path("finishReason").asText();
            if (candidate.path("finishMessage").isTextual())
                finishMessage = candidate.path("finishMessage").asText();
        }
        JsonNode u = response.path("usageMetadata");
        // the counts are totals so far, so the newest wins
        if (u.isObject()) {
            usage = new Usage(
                    u.path("promptTokenCount").asLong(0),
                    u.path("candidatesTokenCount").asLong(0),
                    u.path("thoughtsTokenCount").asLong(0));
        }
    }

    /** True once the prompt was blocked or the answer stopped for a reason that withholds it. */
    boolean blocked() {
        return blockReason != null || finishReason != null && WITHHELD.containsKey(finishReason);
    }

    /** The answer, or the error its feedback and finish reason stand for. */
    ChatResponse finish(ProviderErrors errors) throws ProviderException {
        if (blockReason != null) {
            throw errors.fatal("the prompt was blocked by the API's safety filter (block reason " + blockReason + ")");
        }
        if (finishReason == null) {
            throw errors.malformed(
                    sawCandidate ? "the answer ended before a finish reason" : "the answer holds no candidate");
        }
        String reason = finishReason == null ? "" : finishReason;
        String withheld = WITHHELD.get(reason);
        if (withheld != null) throw errors.fatal(withheld + " (finish reason " + reason + ")");
        switch (reason) {
            case "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL" ->
                throw errors.malformed("the model produced a function call it could not complete (finish reason "
                        + reason + (finishMessage == null ? "" : ": " + finishMessage) + ")");
            case "STOP", "MAX_TOKENS", "FINISH_REASON_UNSPECIFIED" -> {}
            default -> {
                if (text.isEmpty() && calls.isEmpty()) {
                    throw errors.fatal("the model stopped without an answer (finish reason " + reason + ")");
                }
            }
        }
        return new ChatResponse(
                text.toString(), calls, thoughts.isEmpty() ? null : thoughts.toString(), usage, finishReason(reason));
    }

    private void part(JsonNode part) {
        if (part.has("functionCall")) {
            JsonNode call = part.path("functionCall");
            String apiId =
                    call.path("id").isTextual() && !call.path("id").asText().isBlank()
                            ? call.path("id").asText()
                            : null;
            ToolCall parsed =
                    ToolCallParser.fromNode(apiId, call.path("name").asText(null), call.path("args"), calls.size());
            String signature = part.path("thoughtSignature").isTextual()
                    ? part.path("thoughtSignature").asText()
                    : null;
            signatures.remember(parsed.id(), apiId != null, signature);
            calls.add(parsed);
        } else if (part.path("text").isTextual()) {
            String s = part.path("text").asText();
            if (s.isEmpty()) return;
            if (part.path("thought").asBoolean(false)) {
                thoughts.append(s);
                observer.onReasoningDelta(s);
            } else {
                text.append(s);
                observer.onTextDelta(s);
            }
        }
        // inlineData from image models, executableCode, ...: nothing the agent loop can use
    }

    private String finishReason(String reason) {
        if (!calls.isEmpty()) return "tool_calls";
        return switch (reason) {
            case "STOP" -> "stop";
            case "MAX_TOKENS" -> "length";
            default -> reason.isEmpty() ? null : reason.toLowerCase(Locale.ROOT);
        };
    }
}
