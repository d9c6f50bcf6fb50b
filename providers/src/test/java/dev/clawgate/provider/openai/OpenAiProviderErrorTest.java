package dev.clawgate.provider.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.ProviderException.Kind;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Provider errors classified so the pipeline can act on them (SPEC HI-5, HI-6, SP-4 fallback). */
class OpenAiProviderErrorTest {
    private static final String KEY = "sk-proj-SECRETSECRET1234567890";

    @AutoClose
    private final FakeOpenAiServer server = FakeOpenAiServer.start();

    @AutoClose
    private final OpenAiProvider provider = new OpenAiProvider(OpenAiProviderTest.settings(server, KEY));

    private ProviderException fail(boolean stream) {
        return fail(provider, stream);
    }

    private static ProviderException fail(OpenAiProvider provider, boolean stream) {
        ChatRequest req = new ChatRequest("gpt-test", List.of(ChatMessage.user("hi")), List.of(), stream, null);
        return catchThrowableOfType(
                ProviderException.class, () -> provider.chat(req, StreamObserver.NONE, CancelToken.none()));
    }

    @Test
    void rateLimitCarriesTheRetryAfterHeaderInSeconds() {
        // SPEC SP-4: rate limits move on to the fallback chain with the provider's hint
        server.enqueue(Reply.apiError(429, "Rate limit reached for requests", "requests", "rate_limit_exceeded")
                .header("retry-after", "7"));
        ProviderException e = fail(true);
        assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(e.httpStatus()).isEqualTo(429);
        assertThat(e.retryable()).isTrue();
        assertThat(e.getMessage()).contains("429").contains("Rate limit reached");
    }

    @Test
    void rateLimitRetryAfterMayBeAnHttpDate() {
        // SPEC SP-4
        Instant now = Instant.parse("2030-01-01T00:00:00Z");
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.ofInstant(now.plusSeconds(30), ZoneOffset.UTC));
        server.enqueue(Reply.apiError(429, "busy", "requests", null).header("retry-after", date));
        try (OpenAiProvider p =
                new OpenAiProvider(OpenAiProviderTest.settings(server, null), Clock.fixed(now, ZoneOffset.UTC))) {
            assertThat(fail(p, false).retryAfter()).isEqualTo(Duration.ofSeconds(30));
        }
    }

    @Test
    void rateLimitWithoutHeaderTakesTheHintFromTheMessage() {
        // SPEC SP-4
        server.enqueue(Reply.apiError(
                429,
                "Rate limit reached for gpt-4o on tokens per min. Please try again in 1.5s.",
                "tokens",
                "rate_limit_exceeded"));
        assertThat(fail(false).retryAfter()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void contextLengthExceededIsContextOverflow() {
        // SPEC HI-5
        server.enqueue(Reply.contextLengthExceeded(), Reply.contextLengthExceeded());
        ProviderException streamed = fail(true);
        assertThat(streamed.kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
        assertThat(streamed.httpStatus()).isEqualTo(400);
        assertThat(streamed.getMessage()).contains("maximum context length");
        assertThat(fail(false).kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
    }

    @Test
    void llamaCppOverflowWordingIsContextOverflowToo() {
        // SPEC HI-5
        server.enqueue(Reply.error(
                400,
                "{\"error\":{\"code\":400,\"message\":\"request (8968 tokens) exceeds the available "
                        + "context size (8448 tokens), try increasing it\",\"type\":\"exceed_context_size_error\"}}"));
        assertThat(fail(false).kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
    }

    @Test
    void unauthorisedIsAuthAndTheMessageNeverContainsTheKey() {
        // SPEC HI-6: no keys, no URLs with tokens in errors
        server.enqueue(Reply.apiError(
                401,
                "Incorrect API key provided: " + KEY + ". You can find your API key at "
                        + "https://platform.example/keys?token=abc123.",
                "invalid_request_error",
                "invalid_api_key"));
        ProviderException e = fail(true);
        assertThat(e.kind()).isEqualTo(Kind.AUTH);
        assertThat(e.httpStatus()).isEqualTo(401);
        assertThat(e.getMessage())
                .contains("401")
                .contains("Incorrect API key provided")
                .doesNotContain(KEY)
                .doesNotContain("SECRETSECRET")
                .doesNotContain("abc123")
                .doesNotContain(server.baseUrl());
        assertThat(server.lastRequest().header("authorization")).isEqualTo("Bearer " + KEY);
    }

    @Test
    void forbiddenIsAuth() {
        // SPEC HI-6
        server.enqueue(Reply.apiError(403, "Project does not have access to model", "invalid_request_error", null));
        assertThat(fail(false).kind()).isEqualTo(Kind.AUTH);
    }

    @Test
    void serverErrorsAreTransient() {
        // SPEC SP-4: transient errors move on to the fallback chain
        server.enqueue(
                Reply.error(500, "{\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}"),
                Reply.error(503, "<html><body>Bad gateway</body></html>").header("retry-after", "3"));
        ProviderException e = fail(true);
        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(e.httpStatus()).isEqualTo(500);
        assertThat(e.getMessage()).contains("500").contains("The server had an error");
        ProviderException html = fail(false);
        assertThat(html.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(html.getMessage()).doesNotContain("<html>");
        assertThat(html.retryAfter()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void visionRefusalIsVisionUnsupported() {
        // SPEC HI-6: the pipeline rolls the user turn back
        server.enqueue(Reply.apiError(
                400,
                "Invalid content type. image_url is only supported by certain models.",
                "invalid_request_error",
                null));
        assertThat(fail(false).kind()).isEqualTo(Kind.VISION_UNSUPPORTED);
    }

    @Test
    void otherClientErrorsAreFatal() {
        // SPEC HI-6
        server.enqueue(
                Reply.apiError(404, "The model `nope` does not exist", "invalid_request_error", "model_not_found"));
        ProviderException e = fail(false);
        assertThat(e.kind()).isEqualTo(Kind.FATAL);
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void anErrorInsideTheStreamIsClassified() {
        // SPEC HI-5
        server.enqueue(
                Reply.text("partial answer")
                        .thenStreamError(
                                "prompt is too long: 210000 tokens > 200000 maximum", "context_length_exceeded"),
                Reply.text("partial answer").thenStreamError("Upstream provider went away", "502"));
        assertThat(fail(true).kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
        ProviderException upstream = fail(true);
        assertThat(upstream.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(upstream.getMessage()).contains("Upstream provider went away");
    }

    @Test
    void aStreamCutOffBeforeItsFinishIsTransient() {
        // SPEC SP-4
        server.enqueue(Reply.text("one two three").truncatedAfter(2));
        ProviderException e = fail(true);
        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(e.getMessage()).contains("ended before the answer was complete");
    }

    @Test
    void anUnreachableServerIsTransient() throws Exception {
        // SPEC SP-4
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (OpenAiProvider p = new OpenAiProvider(
                new ProviderSettings("x", "openai", "http://127.0.0.1:" + port + "/v1", KEY, null, "m", 2))) {
            ProviderException e = fail(p, false);
            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).doesNotContain(KEY);
        }
    }

    @Test
    void aStreamThatGoesSilentTimesOutAsTransient() {
        // SPEC SP-4
        server.enqueue(Reply.text("a b c d e").delayPerChunk(Duration.ofSeconds(3)));
        try (OpenAiProvider p =
                new OpenAiProvider(new ProviderSettings("x", "openai", server.baseUrl(), null, null, "m", 1))) {
            long start = System.nanoTime();
            ProviderException e = fail(p, true);
            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("no answer within 1s");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        }
    }
}
