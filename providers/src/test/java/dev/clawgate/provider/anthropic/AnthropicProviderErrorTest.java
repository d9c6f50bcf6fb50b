package dev.clawgate.provider.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.ProviderException.Kind;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.anthropic.FakeAnthropicServer;
import dev.clawgate.testkit.anthropic.Reply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The Messages API's errors classified so the pipeline can act on them (SPEC HI-5, HI-6, SP-4 fallback). */
class AnthropicProviderErrorTest {
    @AutoClose
    private final FakeAnthropicServer server = FakeAnthropicServer.start();

    @AutoClose
    private final AnthropicProvider provider =
            new AnthropicProvider(AnthropicProviderTest.settings(server, null, null));

    private ProviderException fail(AnthropicProvider p, boolean stream) {
        ChatRequest req = new ChatRequest("claude-test", List.of(ChatMessage.user("hi")), List.of(), stream, null);
        return catchThrowableOfType(
                ProviderException.class, () -> p.chat(req, StreamObserver.NONE, CancelToken.none()));
    }

    private ProviderException fail(boolean stream) {
        return fail(provider, stream);
    }

    @Test
    void aRejectedKeyIsAnAuthErrorThatNeverEchoesTheKey() {
        // SPEC SP-4, HI-6: no keys in messages
        server.requireApiKey("sk-ant-the-right-one");
        ProviderException e = fail(false);
        assertThat(e.kind()).isEqualTo(Kind.AUTH);
        assertThat(e.httpStatus()).isEqualTo(401);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo("claude: HTTP 401: authentication_error: invalid x-api-key");
        assertThat(e.getMessage()).doesNotContain(AnthropicProviderTest.KEY);
    }

    @Test
    void aMissingKeyIsAnAuthError() {
        // SPEC SP-4: the fake answers as the API does when x-api-key is absent
        AnthropicProvider keyless = new AnthropicProvider(new dev.clawgate.core.config.ProviderSettings(
                "claude", "anthropic", server.baseUrl(), null, null, "claude-test", 10));
        try (keyless) {
            ProviderException e = fail(keyless, true);
            assertThat(e.kind()).isEqualTo(Kind.AUTH);
            assertThat(e.getMessage()).contains("x-api-key header is required");
            assertThat(server.lastRequest().headers()).doesNotContainKey("x-api-key");
        }
    }

    @Test
    void aRateLimitCarriesTheRetryAfterHeader() {
        // SPEC SP-4: rate limits wait or move on to the fallback chain with the provider's hint
        server.enqueue(Reply.rateLimited(Duration.ofSeconds(7)));
        ProviderException e = fail(true);
        assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(e.httpStatus()).isEqualTo(429);
        assertThat(e.retryable()).isTrue();
        assertThat(e.getMessage()).contains("429", "rate_limit_error");
    }

    @Test
    void overloaded529IsTransientAndKeepsARetryAfterHint() {
        // SPEC SP-4: transient errors are retried, then the fallback chain
        server.enqueue(Reply.overloaded(), Reply.overloaded().header("retry-after", "3"));
        ProviderException e = fail(false);
        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(e.httpStatus()).isEqualTo(529);
        assertThat(e.retryAfter()).isNull();
        assertThat(e.getMessage()).isEqualTo("claude: HTTP 529: overloaded_error: Overloaded");
        assertThat(fail(false).retryAfter()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void anInternalServerErrorIsTransientEvenWithoutAnErrorBody() {
        // SPEC SP-4
        server.enqueue(
                Reply.apiError(500, "api_error", "Internal server error"),
                Reply.error(502, "<html>bad gateway</html>"));
        ProviderException e = fail(true);
        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(e.httpStatus()).isEqualTo(500);
        ProviderException proxy = fail(true);
        assertThat(proxy.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(proxy.getMessage()).isEqualTo("claude: HTTP 502");
    }

    @Test
    void promptTooLongIsAContextOverflow() {
        // SPEC HI-5: Anthropic's own wording, through core's one detector
        server.enqueue(
                Reply.promptTooLong(),
                Reply.apiError(
                        400,
                        "invalid_request_error",
                        "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input "
                                + "length "
                                + "or `max_tokens` and try again"));
        ProviderException e = fail(false);
        assertThat(e.kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
        assertThat(e.httpStatus()).isEqualTo(400);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("prompt is too long");
        assertThat(fail(true).kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
    }

    @Test
    void otherInvalidRequestsAndUnknownModelsAreFatal() {
        // SPEC SP-4
        server.enqueue(
                Reply.apiError(400, "invalid_request_error", "max_tokens: 300000 > 64000, which is the maximum"),
                Reply.apiError(404, "not_found_error", "model: claude-nope"),
                Reply.apiError(
                        403,
                        "permission_error",
                        "Your API key does not have permission to use the specified resource."));
        assertThat(fail(false).kind()).isEqualTo(Kind.FATAL);
        assertThat(fail(false).kind()).isEqualTo(Kind.FATAL);
        assertThat(fail(false).kind()).isEqualTo(Kind.AUTH);
    }

    @Test
    void anErrorEventMidStreamIsClassifiedAfterTheTextAlreadyStreamed() {
        // SPEC SP-4: an overloaded_error after the 200 status line is transient
        server.enqueue(Reply.text("partial answer").thenStreamError("overloaded_error", "Overloaded"));
        List<String> deltas = new CopyOnWriteArrayList<>();
        ChatRequest req = new ChatRequest("claude-test", List.of(ChatMessage.user("hi")), List.of(), true, null);
        ProviderException e = catchThrowableOfType(
                ProviderException.class, () -> provider.chat(req, deltas::add, CancelToken.none()));
        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(e.getMessage()).isEqualTo("claude: error in stream: overloaded_error: Overloaded");
        assertThat(String.join("", deltas)).isEqualTo("partial answer");
    }

    @Test
    void aStreamCutOffBeforeMessageStopIsTransient() {
        // SPEC SP-4
        server.enqueue(Reply.text("one two three").truncatedAfter(4));
        ProviderException e = fail(true);
        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(e.getMessage()).contains("message_stop");
    }

    @Test
    void aSilentServerTimesOutAsTransient() {
        // SPEC SP-4
        AnthropicProvider quick = new AnthropicProvider(new dev.clawgate.core.config.ProviderSettings(
                "claude", "anthropic", server.baseUrl(), "k-1234", null, "claude-test", 1));
        server.enqueue(Reply.text("late").delayBefore(Duration.ofSeconds(3)));
        try (quick) {
            ProviderException e = fail(quick, true);
            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("no answer within 1s");
        }
    }
}
