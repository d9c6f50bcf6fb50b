package dev.clawgate.testkit.gemini;

import dev.clawgate.testkit.internal.Delivery;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One scripted answer of the {@link FakeGeminiServer}. Immutable: every modifier returns a copy.
 *
 * <pre>{@code
 * server.enqueue(Reply.text("hi"));
 * server.enqueue(Reply.functionCalls(Reply.call("file_read", "{\"path\":\"a.txt\"}")));
 * server.enqueue(Reply.rateLimited(Duration.ofMillis(1500)));     // 429 RESOURCE_EXHAUSTED + RetryInfo
 * server.enqueue(Reply.promptBlocked("SAFETY"));                   // promptFeedback.blockReason
 * server.enqueue(Reply.text("partial").finishReason("SAFETY"));    // a candidate stopped by safety
 * }</pre>
 */
public final class Reply {
    /**
     * A {@code functionCall} part; {@code argsJson} must be a JSON object (the API sends objects).
     *
     * @param id null to send none (the API often omits it)
     */
    public record Call(String id, String name, String argsJson, String thoughtSignature) {
        public Call {
            Objects.requireNonNull(name, "name");
            argsJson = argsJson == null || argsJson.isBlank() ? "{}" : argsJson;
        }

        public Call withId(String newId) {
            return new Call(newId, name, argsJson, thoughtSignature);
        }

        public Call withThoughtSignature(String signature) {
            return new Call(id, name, argsJson, signature);
        }
    }

    record State(
            Delivery delivery,
            String text,
            String thought,
            List<Call> calls,
            String finishReason,
            String blockReason,
            int chunks,
            long promptTokens,
            long candidateTokens,
            String streamError) {}

    final State s;

    private Reply(State s) {
        this.s = s;
    }

    private static Reply success(String text, List<Call> calls) {
        return new Reply(new State(Delivery.OK, text, null, List.copyOf(calls), null, null, 0, -1, -1, null));
    }

    /** A text answer, finish reason {@code STOP}. */
    public static Reply text(String text) {
        return success(Objects.requireNonNull(text, "text"), List.of());
    }

    /** An answer made of {@code functionCall} parts, finish reason {@code STOP} (as the API reports it). */
    public static Reply functionCalls(Call... calls) {
        if (calls.length == 0) throw new IllegalArgumentException("at least one call");
        return success(null, Arrays.asList(calls));
    }

    /** A function call without an id (the API's usual form). */
    public static Call call(String name, String argsJson) {
        return new Call(null, name, argsJson, null);
    }

    /**
     * No candidate at all: {@code promptFeedback.blockReason} ({@code SAFETY}, {@code OTHER},
     * {@code PROHIBITED_CONTENT}, ...).
     */
    public static Reply promptBlocked(String blockReason) {
        return new Reply(new State(
                Delivery.OK, null, null, List.of(), null, Objects.requireNonNull(blockReason), 0, -1, -1, null));
    }

    /** An HTTP error with exactly this body (as {@code application/json}). */
    public static Reply error(int status, String body) {
        return new Reply(new State(Delivery.error(status, body), null, null, List.of(), null, null, 0, -1, -1, null));
    }

    /** An HTTP error in Google's shape: {@code {"error":{"code","message","status"}}}. */
    public static Reply apiError(int code, String status, String message) {
        return error(code, GeminiJson.errorBody(code, status, message, null));
    }

    /** 429 {@code RESOURCE_EXHAUSTED} with a {@code RetryInfo} detail whose {@code retryDelay} is {@code delay}. */
    public static Reply rateLimited(Duration delay) {
        return error(
                429,
                GeminiJson.errorBody(
                        429,
                        "RESOURCE_EXHAUSTED",
                        "You exceeded your current quota, please check your plan and billing details. Please retry in "
                                + GeminiJson.protoDuration(delay) + ".",
                        delay));
    }

    /** 503 {@code UNAVAILABLE}: the model is overloaded. */
    public static Reply unavailable() {
        return apiError(503, "UNAVAILABLE", "The model is overloaded. Please try again later.");
    }

    /** 400 {@code INVALID_ARGUMENT} as the API words a prompt over the model's input limit. */
    public static Reply inputTooLong() {
        return apiError(
                400,
                "INVALID_ARGUMENT",
                "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).");
    }

    /** Adds (or replaces) a response header. */
    public Reply header(String name, String value) {
        return delivered(s.delivery.header(name, value));
    }

    /** A {@code thought: true} part before the text (a thinking model's summary). */
    public Reply thought(String text) {
        requireSuccess();
        return new Reply(new State(
                s.delivery,
                s.text,
                text,
                s.calls,
                s.finishReason,
                s.blockReason,
                s.chunks,
                s.promptTokens,
                s.candidateTokens,
                s.streamError));
    }

    /**
     * Overrides the finish reason ({@code STOP} by default): {@code MAX_TOKENS}, {@code SAFETY}, {@code RECITATION},
     * ...
     */
    public Reply finishReason(String reason) {
        requireSuccess();
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thought,
                s.calls,
                reason,
                s.blockReason,
                s.chunks,
                s.promptTokens,
                s.candidateTokens,
                s.streamError));
    }

    /** Adds function calls after the text. */
    public Reply withCalls(Call... more) {
        requireSuccess();
        List<Call> all = new java.util.ArrayList<>(s.calls);
        all.addAll(Arrays.asList(more));
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thought,
                List.copyOf(all),
                s.finishReason,
                s.blockReason,
                s.chunks,
                s.promptTokens,
                s.candidateTokens,
                s.streamError));
    }

    /** Streams the text as exactly {@code n} chunks (fewer if it is shorter); default: one per word. */
    public Reply streamedInChunks(int n) {
        requireSuccess();
        if (n < 1) throw new IllegalArgumentException("chunks must be >= 1");
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thought,
                s.calls,
                s.finishReason,
                s.blockReason,
                n,
                s.promptTokens,
                s.candidateTokens,
                s.streamError));
    }

    /** Fixes the reported usage; by default it is estimated at four characters per token. */
    public Reply usage(long promptTokens, long candidateTokens) {
        requireSuccess();
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thought,
                s.calls,
                s.finishReason,
                s.blockReason,
                s.chunks,
                promptTokens,
                candidateTokens,
                s.streamError));
    }

    /** Ends a streamed answer with an {@code error} chunk (a 500 {@code INTERNAL} body when not streamed). */
    public Reply thenStreamError(String message) {
        requireSuccess();
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thought,
                s.calls,
                s.finishReason,
                s.blockReason,
                s.chunks,
                s.promptTokens,
                s.candidateTokens,
                Objects.requireNonNull(message)));
    }

    public Reply delayPerChunk(Duration delay) {
        return delivered(s.delivery.delayPerChunk(delay));
    }

    public Reply delayBefore(Duration delay) {
        return delivered(s.delivery.delayBefore(delay));
    }

    /** Ends a streamed answer cleanly after {@code chunks} chunks (the finish reason may never come). */
    public Reply truncatedAfter(int chunks) {
        requireSuccess();
        return delivered(s.delivery.truncatedAfter(chunks));
    }

    public boolean isError() {
        return s.delivery.isError();
    }

    public String text() {
        return s.text;
    }

    public List<Call> calls() {
        return s.calls;
    }

    String effectiveFinishReason() {
        return s.finishReason != null ? s.finishReason : "STOP";
    }

    private Reply delivered(Delivery d) {
        return new Reply(new State(
                d,
                s.text,
                s.thought,
                s.calls,
                s.finishReason,
                s.blockReason,
                s.chunks,
                s.promptTokens,
                s.candidateTokens,
                s.streamError));
    }

    private void requireSuccess() {
        if (isError()) throw new IllegalStateException("not applicable to an error reply");
    }

    @Override
    public String toString() {
        return isError()
                ? "Reply[error " + s.delivery.status() + "]"
                : "Reply[text=" + s.text + ", calls=" + s.calls + ", finish=" + effectiveFinishReason() + "]";
    }
}
