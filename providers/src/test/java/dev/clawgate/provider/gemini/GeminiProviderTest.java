package dev.clawgate.provider.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.internal.agent.ModelCaller;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.ProviderFactory;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.provider.ToolSpec;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.provider.testing.RecordingObserver;
import dev.clawgate.testkit.gemini.FakeGeminiServer;
import dev.clawgate.testkit.gemini.RecordedRequest;
import dev.clawgate.testkit.gemini.Reply;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Gemini provider against a fake Gemini API over loopback: the real client path (SPEC SP-4). */
class GeminiProviderTest {
    static final String KEY = "AIzaSyTESTKEY0123456789abcdefghij";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FakeGeminiServer server = FakeGeminiServer.start().requireApiKey(KEY);
    private final List<GeminiProvider> opened = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        opened.forEach(GeminiProvider::close);
        server.close();
    }

    static ProviderSettings settings(FakeGeminiServer server, String key) {
        return new ProviderSettings("gem", "gemini", server.baseUrl(), key, null, "gemini-2.5-flash", 10, null);
    }

    private GeminiProvider provider() {
        return provider(settings(server, KEY));
    }

    private GeminiProvider provider(ProviderSettings s) {
        GeminiProvider p = new GeminiProvider(s);
        opened.add(p);
        return p;
    }

    private static ChatRequest request(boolean stream, List<ChatMessage> messages, List<ToolSpec> tools) {
        return new ChatRequest("gemini-2.5-flash", messages, tools, stream, null);
    }

    private static ChatRequest hello(boolean stream) {
        return request(stream, List.of(ChatMessage.system("be brief"), ChatMessage.user("hello")), List.of());
    }

    static ToolSpec fileRead() throws Exception {
        return new ToolSpec(
                "file_read",
                "Read a file",
                JSON.readTree(
                        "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"],"
                                + "\"additionalProperties\":false}"));
    }

    @Test
    void theFactoryIsFoundByKind() {
        // SPEC SP-4: kind = "gemini"
        assertThat(ServiceLoader.load(ProviderFactory.class).stream()
                        .map(p -> p.get().kind()))
                .contains("gemini");
    }

    @Test
    void aTextAnswerComesBackAndTheRequestCarriesTheSystemInstructionAndTheKeyInAHeader() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("hi there").usage(12, 3));
        ChatResponse r = provider().chat(hello(false), StreamObserver.NONE, CancelToken.none());
        assertThat(r.text()).isEqualTo("hi there");
        assertThat(r.finishReason()).isEqualTo("stop");
        assertThat(r.usage().promptTokens()).isEqualTo(12);
        assertThat(r.usage().completionTokens()).isEqualTo(3);
        RecordedRequest sent = server.lastRequest();
        assertThat(sent.path()).isEqualTo("/v1beta/models/gemini-2.5-flash:generateContent");
        assertThat(sent.header("x-goog-api-key")).isEqualTo(KEY);
        // the key never travels in the URL
        assertThat(sent.query()).isNull();
        assertThat(sent.systemInstruction()).isEqualTo("be brief");
        assertThat(sent.messages()).hasSize(1);
        assertThat(sent.messages().get(0).path("role").asText()).isEqualTo("user");
        assertThat(sent.lastUserText()).isEqualTo("hello");
    }

    @Test
    void aStreamedAnswerArrivesAsDeltasOverServerSentEvents() throws Exception {
        // SPEC SP-4: streamGenerateContent with alt=sse
        server.enqueue(
                Reply.text("one two three four").thought("thinking it over").usage(5, 4));
        RecordingObserver seen = new RecordingObserver();
        ChatResponse r = provider().chat(hello(true), seen, CancelToken.none());
        assertThat(r.text()).isEqualTo("one two three four");
        assertThat(String.join("", seen.text)).isEqualTo("one two three four");
        assertThat(seen.text).hasSizeGreaterThan(1);
        assertThat(r.reasoning()).isEqualTo("thinking it over");
        assertThat(seen.reasoning).containsExactly("thinking it over");
        assertThat(r.usage().completionTokens()).isEqualTo(4);
        RecordedRequest sent = server.lastRequest();
        assertThat(sent.path()).isEqualTo("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
        assertThat(sent.query()).isEqualTo("alt=sse");
    }

    @Test
    void aStreamCutBeforeItsFinishReasonIsATransientFailure() {
        // SPEC SP-4: an answer that never finished is not taken for a whole one
        server.enqueue(Reply.text("one two three four").truncatedAfter(2));
        assertThatThrownBy(() -> provider().chat(hello(true), new RecordingObserver(), CancelToken.none()))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.TRANSIENT);
                    assertThat(e.getMessage()).contains("finish reason");
                });
    }

    @Test
    void aFunctionCallRoundTripsWithItsIdNameAndThoughtSignature() throws Exception {
        // SPEC SP-4, AG-1: functionDeclarations -> functionCall -> functionResponse
        GeminiProvider provider = provider();
        server.enqueue(
                Reply.functionCalls(Reply.call("file_read", "{\"path\":\"notes.txt\"}")
                        .withId("fc-1")
                        .withThoughtSignature("c2lnbmF0dXJl")),
                Reply.text("the file says hi"));
        ChatMessage system = ChatMessage.system("use tools");
        ChatMessage user = ChatMessage.user("what is in notes.txt?");
        ChatResponse first = provider.chat(
                request(false, List.of(system, user), List.of(fileRead())), StreamObserver.NONE, CancelToken.none());
        assertThat(first.finishReason()).isEqualTo("tool_calls");
        assertThat(first.toolCalls()).hasSize(1);
        ToolCall call = first.toolCalls().getFirst();
        assertThat(call.id()).isEqualTo("fc-1");
        assertThat(call.name()).isEqualTo("file_read");
        assertThat(call.arguments().path("path").asText()).isEqualTo("notes.txt");
        JsonNode declared = server.lastRequest().functionDeclarations().getFirst();
        assertThat(declared.path("name").asText()).isEqualTo("file_read");
        assertThat(declared.path("parametersJsonSchema").path("required").get(0).asText())
                .isEqualTo("path");

        ChatResponse second = provider.chat(
                request(
                        false,
                        List.of(
                                system,
                                user,
                                ChatMessage.assistant("", List.of(call)),
                                ChatMessage.tool("fc-1", "file_read", "hi")),
                        List.of(fileRead())),
                StreamObserver.NONE,
                CancelToken.none());
        assertThat(second.text()).isEqualTo("the file says hi");
        JsonNode contents = server.lastRequest().messages();
        assertThat(contents).hasSize(3);
        JsonNode modelTurn = contents.get(1);
        assertThat(modelTurn.path("role").asText()).isEqualTo("model");
        assertThat(modelTurn
                        .path("parts")
                        .get(0)
                        .path("functionCall")
                        .path("id")
                        .asText())
                .isEqualTo("fc-1");
        assertThat(modelTurn.path("parts").get(0).path("thoughtSignature").asText())
                .isEqualTo("c2lnbmF0dXJl");
        JsonNode response = contents.get(2).path("parts").get(0).path("functionResponse");
        assertThat(contents.get(2).path("role").asText()).isEqualTo("user");
        assertThat(response.path("name").asText()).isEqualTo("file_read");
        assertThat(response.path("id").asText()).isEqualTo("fc-1");
        assertThat(response.path("response").path("output").asText()).isEqualTo("hi");
    }

    @Test
    void aStreamedFunctionCallWithoutAnIdGetsOneThatIsNotSentBack() throws Exception {
        // SPEC AG-1: the API often omits ids; ours stay ours
        GeminiProvider provider = provider();
        server.enqueue(Reply.functionCalls(Reply.call("file_read", "{\"path\":\"a\"}")), Reply.text("done"));
        ChatMessage user = ChatMessage.user("read a");
        ChatResponse first = provider.chat(
                request(true, List.of(user), List.of(fileRead())), new RecordingObserver(), CancelToken.none());
        ToolCall call = first.toolCalls().getFirst();
        assertThat(call.id()).isNotBlank();
        provider.chat(
                request(
                        true,
                        List.of(
                                user,
                                ChatMessage.assistant("", List.of(call)),
                                ChatMessage.tool(call.id(), null, "Error: no such file")),
                        List.of(fileRead())),
                new RecordingObserver(),
                CancelToken.none());
        JsonNode contents = server.lastRequest().messages();
        assertThat(contents.get(1).path("parts").get(0).path("functionCall").has("id"))
                .isFalse();
        JsonNode response = contents.get(2).path("parts").get(0).path("functionResponse");
        assertThat(response.path("name").asText()).isEqualTo("file_read");
        assertThat(response.path("response").path("error").asText()).isEqualTo("Error: no such file");
    }

    @Test
    void anImageMarkerIsSentAsInlineData() throws Exception {
        // SPEC AG-4: images go to vision providers as base64
        String png = Base64.getEncoder().encodeToString(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        server.enqueue(Reply.text("a tiny picture"));
        ChatResponse r = provider()
                .chat(
                        request(
                                false,
                                List.of(ChatMessage.user("what is this? [IMAGE:data:image/png;base64," + png + "]")),
                                List.of()),
                        StreamObserver.NONE,
                        CancelToken.none());
        assertThat(r.text()).isEqualTo("a tiny picture");
        assertThat(provider().capabilities().vision()).isTrue();
        JsonNode parts = server.lastRequest().messages().get(0).path("parts");
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0).path("text").asText()).isEqualTo("what is this?");
        assertThat(parts.get(1).path("inlineData").path("mimeType").asText()).isEqualTo("image/png");
        assertThat(parts.get(1).path("inlineData").path("data").asText()).isEqualTo(png);
    }

    @Test
    void aBlockedPromptIsAClearFatalError() {
        // SPEC SP-4: safety blocks are named, not an empty reply
        server.enqueue(Reply.promptBlocked("SAFETY"));
        assertThatThrownBy(() -> provider().chat(hello(false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.FATAL);
                    assertThat(e.getMessage())
                            .contains("blocked")
                            .contains("safety")
                            .contains("SAFETY");
                });
    }

    @Test
    void anAnswerStoppedBySafetyIsAClearFatalErrorStreamedOrNot() {
        // SPEC SP-4: finish reasons that withhold the answer
        for (boolean stream : new boolean[] {false, true}) {
            server.enqueue(Reply.text("partial").finishReason("SAFETY"));
            assertThatThrownBy(() -> provider().chat(hello(stream), new RecordingObserver(), CancelToken.none()))
                    .isInstanceOfSatisfying(ProviderException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ProviderException.Kind.FATAL);
                        assertThat(e.getMessage()).contains("safety filter").contains("SAFETY");
                    });
        }
        server.enqueue(Reply.text("to be or not").finishReason("RECITATION"));
        assertThatThrownBy(() -> provider().chat(hello(false), StreamObserver.NONE, CancelToken.none()))
                .hasMessageContaining("copyrighted")
                .hasMessageContaining("RECITATION");
    }

    @Test
    void maxTokensIsALengthFinishNotAnError() throws Exception {
        server.enqueue(Reply.text("cut sh").finishReason("MAX_TOKENS"));
        ChatResponse r = provider().chat(hello(false), StreamObserver.NONE, CancelToken.none());
        assertThat(r.text()).isEqualTo("cut sh");
        assertThat(r.finishReason()).isEqualTo("length");
    }

    @Test
    void resourceExhaustedCarriesTheRetryInfoDelay() {
        // SPEC SP-4: 429 RESOURCE_EXHAUSTED with RetryInfo.retryDelay
        server.enqueue(Reply.rateLimited(Duration.ofMillis(1500)));
        assertThatThrownBy(() -> provider().chat(hello(false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.RATE_LIMITED);
                    assertThat(e.retryAfter()).isEqualTo(Duration.ofMillis(1500));
                    assertThat(e.httpStatus()).isEqualTo(429);
                    assertThat(e.getMessage()).contains("RESOURCE_EXHAUSTED");
                });
    }

    @Test
    void theModelCallerWaitsTheRetryDelayAndTriesAgainButNotBeyondItsCap() throws Exception {
        // SPEC SP-4: the retry delay is honoured: a short one is waited for, one over the cap is not
        GeminiProvider provider = provider();
        List<ModelRoute> route = List.of(new ModelRoute(provider, "gemini-2.5-flash", true));
        ModelCaller caller = new ModelCaller(2, Duration.ofSeconds(1), Duration.ZERO);
        server.enqueue(Reply.rateLimited(Duration.ofMillis(200)), Reply.text("after the wait"));
        CancelToken token = CancelToken.none();
        assertThat(caller.call(route, hello(false), StreamObserver.NONE, token).text())
                .isEqualTo("after the wait");
        assertThat(server.generateRequests()).hasSize(2);

        server.reset();
        server.enqueue(Reply.rateLimited(Duration.ofSeconds(30)), Reply.text("never asked"));
        assertThatThrownBy(() -> caller.call(route, hello(false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(
                        ProviderException.class, e -> assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(30)));
        assertThat(server.generateRequests()).hasSize(1);
    }

    @Test
    void errorsMapToKindsWithoutLeakingTheKey() {
        // SPEC HI-5, HI-6
        server.enqueue(Reply.inputTooLong(), Reply.unavailable(), Reply.apiError(404, "NOT_FOUND", "no such model"));
        assertThatThrownBy(() -> provider().chat(hello(false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(
                        ProviderException.class,
                        e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.CONTEXT_OVERFLOW));
        assertThatThrownBy(() -> provider().chat(hello(false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(
                        ProviderException.class, e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.TRANSIENT));
        assertThatThrownBy(() -> provider().chat(hello(false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(
                        ProviderException.class, e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.FATAL));
        assertThatThrownBy(() -> provider(settings(server, "AIzaWRONGKEY0000000000"))
                        .chat(hello(false), StreamObserver.NONE, CancelToken.none()))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ProviderException.Kind.AUTH);
                    assertThat(e.getMessage()).doesNotContain("AIzaWRONGKEY0000000000");
                });
    }

    @Test
    void anErrorChunkMidStreamIsClassified() {
        server.enqueue(Reply.text("some words here").thenStreamError("Internal error encountered."));
        assertThatThrownBy(() -> provider().chat(hello(true), new RecordingObserver(), CancelToken.none()))
                .isInstanceOfSatisfying(
                        ProviderException.class, e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.TRANSIENT));
    }

    @Test
    void theModelListComesFromTheModelsEndpoint() throws Exception {
        server.models("gemini-2.5-flash", "gemini-2.5-pro");
        assertThat(provider().listModels(CancelToken.none())).containsExactly("gemini-2.5-flash", "gemini-2.5-pro");
    }

    @Test
    void apiBaseWithoutAVersionGetsV1betaAndAModelWithPathCharactersIsRefused() {
        assertThat(GeminiProvider.apiRoot("http://127.0.0.1:9/").toString()).isEqualTo("http://127.0.0.1:9/v1beta");
        assertThat(GeminiProvider.apiRoot("https://proxy.example/v1").toString())
                .isEqualTo("https://proxy.example/v1");
        assertThatThrownBy(() -> provider()
                        .chat(
                                new ChatRequest("../evil?x=1", List.of(ChatMessage.user("hi")), List.of(), false, null),
                                StreamObserver.NONE,
                                CancelToken.none()))
                .isInstanceOfSatisfying(
                        ProviderException.class, e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.FATAL));
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void aCancelledStreamHangsUp() throws Exception {
        // SPEC AG-2
        server.enqueue(Reply.text("a b c d e f g h i j k l m n o p").delayPerChunk(Duration.ofMillis(200)));
        CancelToken token = new CancelToken();
        Provider p = provider();
        StreamObserver seen = delta -> token.cancel("stop");
        assertThatThrownBy(() -> p.chat(hello(true), seen, token))
                .isInstanceOf(dev.clawgate.core.run.CancelledException.class);
        assertThat(server.awaitClientDisconnect(Duration.ofSeconds(10))).isTrue();
    }
}
