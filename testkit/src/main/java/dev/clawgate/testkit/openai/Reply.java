package dev.clawgate.testkit.openai;

import dev.clawgate.testkit.internal.Delivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One scripted answer of the {@link FakeOpenAiServer}. Immutable: every {@code with...}-style method returns a copy, so
 * a reply can be enqueued many times.
 *
 * <pre>{@code
 * server.enqueue(Reply.text("hi"));
 * server.enqueue(Reply.toolCalls(Reply.call("file_write", "{\"path\":\"a.txt\"}")));
 * server.enqueue(Reply.error(429, "{}").header("retry-after", "2"));
 * server.enqueue(Reply.text("slow").streamedInChunks(20).delayPerChunk(Duration.ofMillis(50)));
 * }</pre>
 */
public final class Reply {
    private static final AtomicLong CALL_IDS = new AtomicLong();

    /** A native tool call the fake model makes; {@code arguments} is sent verbatim (it may be broken JSON). */
    public record Call(String id, String name, String arguments) {
        public Call {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            arguments = arguments == null ? "" : arguments;
        }

        public Call withId(String newId) {
            return new Call(newId, name, arguments);
        }
    }

    final Delivery delivery;
    final String content;
    final String reasoning;
    final List<Call> calls;
    final String finishReason;
    final int chunks;
    final long promptTokens;
    final long completionTokens;
    final String streamError;

    private Reply(
            Delivery delivery,
            String content,
            String reasoning,
            List<Call> calls,
            String finishReason,
            int chunks,
            long promptTokens,
            long completionTokens,
            String streamError) {
        this.delivery = delivery;
        this.content = content;
        this.reasoning = reasoning;
        this.calls = List.copyOf(calls);
        this.finishReason = finishReason;
        this.chunks = chunks;
        this.promptTokens = promptTokens;
        this.completionTokens = completionTokens;
        this.streamError = streamError;
    }

    private static Reply success(String content, List<Call> calls) {
        return new Reply(Delivery.OK, content, null, calls, null, 0, -1, -1, null);
    }

    /** A plain text answer, finish reason {@code stop}. */
    public static Reply text(String content) {
        return success(Objects.requireNonNull(content, "content"), List.of());
    }

    /** An answer made only of native tool calls ({@code content: null}, finish reason {@code tool_calls}). */
    public static Reply toolCalls(Call... calls) {
        if (calls.length == 0) throw new IllegalArgumentException("at least one call");
        return success(null, Arrays.asList(calls));
    }

    /**
     * A tool call with a fresh id ({@code call_fake1}, {@code call_fake2}, ...); {@code argumentsJson} is sent as-is,
     * so it may be malformed on purpose.
     */
    public static Call call(String name, String argumentsJson) {
        return new Call("call_fake" + CALL_IDS.incrementAndGet(), name, argumentsJson);
    }

    /**
     * Prompt-guided mode (SPEC SP-3): plain text content in which each call is written as {@code <tool_call>{"name":
     * ..., "arguments": ...}</tool_call>}; no native tool calls.
     */
    public static Reply textWithToolCallTags(String lead, Call... calls) {
        StringBuilder sb = new StringBuilder(lead == null ? "" : lead);
        for (Call c : calls) {
            if (!sb.isEmpty()) sb.append('\n');
            String args = c.arguments().isBlank() ? "{}" : c.arguments();
            sb.append("<tool_call>\n{\"name\": \"")
                    .append(c.name())
                    .append("\", \"arguments\": ")
                    .append(args)
                    .append("}\n</tool_call>");
        }
        return text(sb.toString());
    }

    /** {@link #textWithToolCallTags(String, Call...)} with no text before the tags. */
    public static Reply textWithToolCallTags(Call... calls) {
        return textWithToolCallTags("", calls);
    }

    /** An HTTP error with this exact body (sent as {@code application/json}), whatever the stream flag. */
    public static Reply error(int status, String body) {
        return new Reply(Delivery.error(status, body), null, null, List.of(), null, 0, -1, -1, null);
    }

    /** An HTTP error whose body has OpenAI's shape: {@code {"error":{"message","type","param","code"}}}. */
    public static Reply apiError(int status, String message, String type, String code) {
        return error(status, OpenAiJson.errorBody(message, type, null, code));
    }

    /** OpenAI's real answer to a prompt that does not fit: 400, code {@code context_length_exceeded}. */
    public static Reply contextLengthExceeded() {
        return error(
                400,
                OpenAiJson.errorBody(
                        "This model's maximum context length is 128000 tokens. However, your "
                                + "messages resulted in 131072 tokens. Please reduce the length of the messages.",
                        "invalid_request_error",
                        "messages",
                        "context_length_exceeded"));
    }

    /** 429 as OpenAI sends it, with a {@code retry-after} header in seconds. */
    public static Reply rateLimited(Duration retryAfter) {
        return apiError(
                        429,
                        "Rate limit reached for requests. Please try again in " + retryAfter.toSeconds() + "s.",
                        "requests",
                        "rate_limit_exceeded")
                .header("retry-after", Long.toString(retryAfter.toSeconds()));
    }

    /** Adds (or replaces) a response header. */
    public Reply header(String name, String value) {
        return delivered(delivery.header(name, value));
    }

    /** Adds native tool calls to a text answer (content and calls in one message). */
    public Reply withToolCalls(Call... more) {
        requireSuccess();
        List<Call> all = new ArrayList<>(calls);
        all.addAll(Arrays.asList(more));
        return new Reply(
                delivery, content, reasoning, all, finishReason, chunks, promptTokens, completionTokens, streamError);
    }

    /** Reasoning text, sent as {@code reasoning_content} (before the content when streaming). */
    public Reply reasoning(String text) {
        requireSuccess();
        return new Reply(
                delivery, content, text, calls, finishReason, chunks, promptTokens, completionTokens, streamError);
    }

    /** Overrides the finish reason ({@code stop}, or {@code tool_calls} when there are calls). */
    public Reply finishReason(String reason) {
        requireSuccess();
        return new Reply(
                delivery, content, reasoning, calls, reason, chunks, promptTokens, completionTokens, streamError);
    }

    /** Streams the content as exactly {@code n} deltas (fewer if the text is shorter); default: one per word. */
    public Reply streamedInChunks(int n) {
        requireSuccess();
        if (n < 1) throw new IllegalArgumentException("chunks must be >= 1");
        return new Reply(
                delivery, content, reasoning, calls, finishReason, n, promptTokens, completionTokens, streamError);
    }

    /** Waits this long before each streamed event (a slow model). */
    public Reply delayPerChunk(Duration delay) {
        return delivered(delivery.delayPerChunk(delay));
    }

    /** Waits this long before sending the status line (a slow first token, or a timeout test). */
    public Reply delayBefore(Duration delay) {
        return delivered(delivery.delayBefore(delay));
    }

    /** Fixes the reported usage; by default it is estimated at four characters per token. */
    public Reply usage(long prompt, long completion) {
        requireSuccess();
        return new Reply(delivery, content, reasoning, calls, finishReason, chunks, prompt, completion, streamError);
    }

    /**
     * Ends a streamed answer with {@code data: {"error":{"message","code"}}} and no {@code [DONE]}, as OpenRouter does
     * when the upstream fails mid-stream; a non-streamed request gets the same error object as the body of a 500.
     */
    public Reply thenStreamError(String message, String code) {
        requireSuccess();
        String error = OpenAiJson.errorBody(message, "server_error", null, code);
        return new Reply(
                delivery, content, reasoning, calls, finishReason, chunks, promptTokens, completionTokens, error);
    }

    /** Ends a streamed answer cleanly after {@code events} events, with no finish reason and no {@code [DONE]}. */
    public Reply truncatedAfter(int events) {
        requireSuccess();
        return delivered(delivery.truncatedAfter(events));
    }

    public boolean isError() {
        return delivery.isError();
    }

    public int status() {
        return delivery.status();
    }

    /** The text content, or null for a tool-calls-only answer or an error. */
    public String content() {
        return content;
    }

    public List<Call> calls() {
        return calls;
    }

    String effectiveFinishReason() {
        if (finishReason != null) return finishReason;
        return calls.isEmpty() ? "stop" : "tool_calls";
    }

    private Reply delivered(Delivery d) {
        return new Reply(
                d, content, reasoning, calls, finishReason, chunks, promptTokens, completionTokens, streamError);
    }

    private void requireSuccess() {
        if (isError()) throw new IllegalStateException("not applicable to an error reply");
    }

    @Override
    public String toString() {
        return isError()
                ? "Reply[error " + status() + "]"
                : "Reply[content=" + content + ", calls=" + calls + ", finish=" + effectiveFinishReason() + "]";
    }
}
