package dev.clawgate.testkit.anthropic;

import dev.clawgate.testkit.internal.Delivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One scripted answer of the {@link FakeAnthropicServer}. Immutable: every modifier returns a copy, so a reply can be
 * enqueued many times.
 *
 * <pre>{@code
 * server.enqueue(Reply.text("hi"));
 * server.enqueue(Reply.toolUses(Reply.toolUse("file_write", "{\"path\":\"a.txt\"}")));
 * server.enqueue(Reply.rateLimited(Duration.ofSeconds(2)));
 * server.enqueue(Reply.text("slow").streamedInChunks(20).delayPerChunk(Duration.ofMillis(50)));
 * }</pre>
 */
public final class Reply {
    private static final AtomicLong TOOL_USE_IDS = new AtomicLong();

    /** A {@code tool_use} block; {@code inputJson} is streamed verbatim, so it may be broken on purpose. */
    public record ToolUse(String id, String name, String inputJson) {
        public ToolUse {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            inputJson = inputJson == null ? "" : inputJson;
        }

        public ToolUse withId(String newId) {
            return new ToolUse(newId, name, inputJson);
        }
    }

    // one record keeps the copy-on-modify methods short; package-private for the server
    record State(
            Delivery delivery,
            String text,
            String thinking,
            List<ToolUse> toolUses,
            String stopReason,
            int chunks,
            long inputTokens,
            long outputTokens,
            String streamErrorType,
            String streamErrorMessage) {}

    final State s;

    private Reply(State s) {
        this.s = s;
    }

    private static Reply success(String text, List<ToolUse> uses) {
        return new Reply(new State(Delivery.OK, text, null, List.copyOf(uses), null, 0, -1, -1, null, null));
    }

    /** A text answer, stop reason {@code end_turn}. */
    public static Reply text(String text) {
        return success(Objects.requireNonNull(text, "text"), List.of());
    }

    /** An answer made only of {@code tool_use} blocks, stop reason {@code tool_use}. */
    public static Reply toolUses(ToolUse... uses) {
        if (uses.length == 0) throw new IllegalArgumentException("at least one tool use");
        return success(null, Arrays.asList(uses));
    }

    /** A tool use with a fresh id ({@code toolu_fake1}, ...); {@code inputJson} is sent as-is when streamed. */
    public static ToolUse toolUse(String name, String inputJson) {
        return new ToolUse("toolu_fake" + TOOL_USE_IDS.incrementAndGet(), name, inputJson);
    }

    /** An HTTP error with exactly this body (as {@code application/json}), whatever the stream flag. */
    public static Reply error(int status, String body) {
        return new Reply(new State(Delivery.error(status, body), null, null, List.of(), null, 0, -1, -1, null, null));
    }

    /** An HTTP error in Anthropic's shape: {@code {"type":"error","error":{"type","message"},"request_id"}}. */
    public static Reply apiError(int status, String type, String message) {
        return error(status, AnthropicJson.errorBody(type, message));
    }

    /** 429 {@code rate_limit_error} with a {@code retry-after} header in seconds. */
    public static Reply rateLimited(Duration retryAfter) {
        return apiError(
                        429,
                        "rate_limit_error",
                        "This request would exceed the rate limit for your organization of "
                                + "50 input tokens per minute. Please try again later.")
                .header("retry-after", Long.toString(retryAfter.toSeconds()));
    }

    /** 529 {@code overloaded_error}, as the API answers under heavy load. */
    public static Reply overloaded() {
        return apiError(529, "overloaded_error", "Overloaded");
    }

    /** 400 {@code invalid_request_error}: the API's answer to a prompt that does not fit the context. */
    public static Reply promptTooLong() {
        return apiError(400, "invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum");
    }

    /** Adds (or replaces) a response header. */
    public Reply header(String name, String value) {
        return delivered(s.delivery.header(name, value));
    }

    /** Adds tool uses after the text (text and tool_use blocks in one message). */
    public Reply withToolUses(ToolUse... more) {
        requireSuccess();
        List<ToolUse> all = new ArrayList<>(s.toolUses);
        all.addAll(Arrays.asList(more));
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thinking,
                List.copyOf(all),
                s.stopReason,
                s.chunks,
                s.inputTokens,
                s.outputTokens,
                s.streamErrorType,
                s.streamErrorMessage));
    }

    /** A {@code thinking} block before the text. */
    public Reply thinking(String text) {
        requireSuccess();
        return new Reply(new State(
                s.delivery,
                s.text,
                text,
                s.toolUses,
                s.stopReason,
                s.chunks,
                s.inputTokens,
                s.outputTokens,
                s.streamErrorType,
                s.streamErrorMessage));
    }

    /** Overrides the stop reason ({@code end_turn}, or {@code tool_use} when there are tool uses). */
    public Reply stopReason(String reason) {
        requireSuccess();
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thinking,
                s.toolUses,
                reason,
                s.chunks,
                s.inputTokens,
                s.outputTokens,
                s.streamErrorType,
                s.streamErrorMessage));
    }

    /** Streams the text as exactly {@code n} deltas (fewer if it is shorter); default: one per word. */
    public Reply streamedInChunks(int n) {
        requireSuccess();
        if (n < 1) throw new IllegalArgumentException("chunks must be >= 1");
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thinking,
                s.toolUses,
                s.stopReason,
                n,
                s.inputTokens,
                s.outputTokens,
                s.streamErrorType,
                s.streamErrorMessage));
    }

    /** Waits this long before each streamed event (a slow model). */
    public Reply delayPerChunk(Duration delay) {
        return delivered(s.delivery.delayPerChunk(delay));
    }

    /** Waits this long before the status line (a slow first token, or a timeout test). */
    public Reply delayBefore(Duration delay) {
        return delivered(s.delivery.delayBefore(delay));
    }

    /** Fixes the reported usage; by default it is estimated at four characters per token. */
    public Reply usage(long inputTokens, long outputTokens) {
        requireSuccess();
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thinking,
                s.toolUses,
                s.stopReason,
                s.chunks,
                inputTokens,
                outputTokens,
                s.streamErrorType,
                s.streamErrorMessage));
    }

    /**
     * Ends a streamed answer with an {@code error} event after the content (no {@code message_stop}), as the API does
     * when it becomes overloaded mid-stream; a non-streamed request gets the same error as the body of a 529
     * ({@code overloaded_error}) or 500.
     */
    public Reply thenStreamError(String errorType, String message) {
        requireSuccess();
        return new Reply(new State(
                s.delivery,
                s.text,
                s.thinking,
                s.toolUses,
                s.stopReason,
                s.chunks,
                s.inputTokens,
                s.outputTokens,
                Objects.requireNonNull(errorType),
                Objects.requireNonNull(message)));
    }

    /** Ends a streamed answer cleanly after {@code events} events, without {@code message_stop}. */
    public Reply truncatedAfter(int events) {
        requireSuccess();
        return delivered(s.delivery.truncatedAfter(events));
    }

    public boolean isError() {
        return s.delivery.isError();
    }

    public int status() {
        return s.delivery.status();
    }

    /** The text, or null for a tool-uses-only answer or an error. */
    public String text() {
        return s.text;
    }

    public List<ToolUse> toolUses() {
        return s.toolUses;
    }

    String effectiveStopReason() {
        if (s.stopReason != null) return s.stopReason;
        return s.toolUses.isEmpty() ? "end_turn" : "tool_use";
    }

    private Reply delivered(Delivery d) {
        return new Reply(new State(
                d,
                s.text,
                s.thinking,
                s.toolUses,
                s.stopReason,
                s.chunks,
                s.inputTokens,
                s.outputTokens,
                s.streamErrorType,
                s.streamErrorMessage));
    }

    private void requireSuccess() {
        if (isError()) throw new IllegalStateException("not applicable to an error reply");
    }

    @Override
    public String toString() {
        return isError()
                ? "Reply[error " + status() + "]"
                : "Reply[text=" + s.text + ", toolUses=" + s.toolUses + ", stop=" + effectiveStopReason() + "]";
    }
}
