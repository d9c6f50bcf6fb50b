package dev.clawgate.provider.openai;

import static dev.clawgate.testkit.openai.Reply.call;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderFactory;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.provider.ToolSpec;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.provider.testing.RecordingObserver;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The OpenAI-compatible provider against a fake server over loopback: the real client path (SPEC SP-4). */
class OpenAiProviderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final List<OpenAiProvider> opened = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        opened.forEach(OpenAiProvider::close);
        server.close();
    }

    static ProviderSettings settings(FakeOpenAiServer server, String key) {
        return new ProviderSettings("local", "openai", server.baseUrl(), key, null, "gpt-test", 10);
    }

    private Provider provider(String key) {
        OpenAiProvider p = new OpenAiProvider(settings(server, key));
        opened.add(p);
        return p;
    }

    private static ChatRequest request(boolean stream, List<ToolSpec> tools) {
        return new ChatRequest(
                "gpt-test", List.of(ChatMessage.system("be brief"), ChatMessage.user("hello")), tools, stream, null);
    }

    private static ToolSpec fileWrite() throws Exception {
        return new ToolSpec(
                "file_write",
                "Write a file",
                JSON.readTree(
                        "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]"
                                + "}"));
    }

    @Test
    void plainTextAnswerComesBackWithUsageAndTheRequestIsOnTheWire() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("hi there").usage(12, 3));
        ChatResponse r = provider(null).chat(request(false, List.of()), StreamObserver.NONE, CancelToken.none());
        assertThat(r.text()).isEqualTo("hi there");
        assertThat(r.toolCalls()).isEmpty();
        assertThat(r.finishReason()).isEqualTo("stop");
        assertThat(r.usage().promptTokens()).isEqualTo(12);
        assertThat(r.usage().completionTokens()).isEqualTo(3);
        RecordedRequest sent = server.lastRequest();
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(sent.header("content-type")).isEqualTo("application/json");
        assertThat(sent.model()).isEqualTo("gpt-test");
        assertThat(sent.stream()).isFalse();
        assertThat(sent.body().has("stream_options")).isFalse();
        assertThat(sent.body().has("tools")).isFalse();
        assertThat(sent.messages().findValuesAsText("role")).containsExactly("system", "user");
        assertThat(sent.messages().findValuesAsText("content")).containsExactly("be brief", "hello");
    }

    @Test
    void streamedTextReachesTheObserverDeltaByDeltaInOrder() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("one two three four").usage(5, 4));
        RecordingObserver seen = new RecordingObserver();
        ChatResponse r = provider(null).chat(request(true, List.of()), seen, CancelToken.none());
        assertThat(seen.text).containsExactly("one", " two", " three", " four");
        assertThat(r.text()).isEqualTo("one two three four");
        assertThat(r.usage().promptTokens()).isEqualTo(5);
        assertThat(r.finishReason()).isEqualTo("stop");
        RecordedRequest sent = server.lastRequest();
        assertThat(sent.stream()).isTrue();
        assertThat(sent.body().path("stream_options").path("include_usage").asBoolean())
                .isTrue();
        assertThat(sent.header("accept")).isEqualTo("text/event-stream");
    }

    @Test
    void reasoningDeltasGoToTheReasoningChannel() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("42").reasoning("think hard"));
        RecordingObserver seen = new RecordingObserver();
        ChatResponse r = provider(null).chat(request(true, List.of()), seen, CancelToken.none());
        assertThat(String.join("", seen.reasoning)).isEqualTo("think hard");
        assertThat(seen.text).containsExactly("42");
        assertThat(r.reasoning()).isEqualTo("think hard");
        server.enqueue(Reply.text("43").reasoning("again"));
        assertThat(provider(null)
                        .chat(request(false, List.of()), seen, CancelToken.none())
                        .reasoning())
                .isEqualTo("again");
    }

    @Test
    void toolsAreSentInOpenAiFunctionFormat() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("ok"));
        provider(null).chat(request(true, List.of(fileWrite())), StreamObserver.NONE, CancelToken.none());
        JsonNode tools = server.lastRequest().body().path("tools");
        assertThat(tools).hasSize(1);
        assertThat(tools.get(0).path("type").asText()).isEqualTo("function");
        assertThat(tools.get(0).path("function").path("name").asText()).isEqualTo("file_write");
        assertThat(tools.get(0).path("function").path("description").asText()).isEqualTo("Write a file");
        assertThat(tools.get(0)
                        .path("function")
                        .path("parameters")
                        .path("required")
                        .get(0)
                        .asText())
                .isEqualTo("path");
    }

    @Test
    void streamedNativeToolCallsAreAssembledByIndex() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.toolCalls(
                call("file_write", "{\"path\":\"notes/today.txt\",\"content\":\"buy milk and eggs\"}")
                        .withId("call_1"),
                call("file_read", "{\"path\":\"a.txt\"}").withId("call_2")));
        ChatResponse r =
                provider(null).chat(request(true, List.of(fileWrite())), StreamObserver.NONE, CancelToken.none());
        assertThat(r.finishReason()).isEqualTo("tool_calls");
        assertThat(r.toolCalls())
                .extracting(ToolCall::id, ToolCall::name)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("call_1", "file_write"),
                        org.assertj.core.groups.Tuple.tuple("call_2", "file_read"));
        assertThat(r.toolCalls().get(0).arguments().path("content").asText()).isEqualTo("buy milk and eggs");
        assertThat(r.toolCalls().get(1).arguments().path("path").asText()).isEqualTo("a.txt");
        assertThat(r.toolCalls()).noneMatch(ToolCall::malformed);
    }

    @Test
    void nonStreamedNativeToolCallsKeepTheirTextAndArguments() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("Writing it now.")
                .withToolCalls(call("file_write", "{\"path\":\"x\"}").withId("c9")));
        ChatResponse r =
                provider(null).chat(request(false, List.of(fileWrite())), StreamObserver.NONE, CancelToken.none());
        assertThat(r.text()).isEqualTo("Writing it now.");
        assertThat(r.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.id()).isEqualTo("c9");
            assertThat(c.arguments().path("path").asText()).isEqualTo("x");
        });
    }

    @Test
    void malformedToolArgumentsBecomeAParseErrorNotAnException() throws Exception {
        // SPEC SP-4 (AG-1: malformed calls are reported back to the model)
        server.enqueue(
                Reply.toolCalls(call("shell", "{\"command\": \"ls -la").withId("bad1")),
                Reply.toolCalls(call("shell", "[1,2]").withId("bad2")));
        ChatResponse streamed = provider(null).chat(request(true, List.of()), StreamObserver.NONE, CancelToken.none());
        assertThat(streamed.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("shell");
            assertThat(c.malformed()).isTrue();
            assertThat(c.parseError()).contains("not valid JSON").contains("ls -la");
        });
        ChatResponse plain = provider(null).chat(request(false, List.of()), StreamObserver.NONE, CancelToken.none());
        assertThat(plain.toolCalls().getFirst().parseError()).contains("must be a JSON object");
    }

    @Test
    void toolCallTagsInTextAreLeftForTheParser() throws Exception {
        // SPEC SP-3
        server.enqueue(Reply.textWithToolCallTags("Checking.", call("file_read", "{\"path\":\"a\"}")));
        ChatResponse r = provider(null).chat(request(true, List.of()), StreamObserver.NONE, CancelToken.none());
        assertThat(r.toolCalls()).isEmpty();
        assertThat(r.text()).contains("<tool_call>").contains("\"file_read\"");
    }

    @Test
    void aConversationWithToolTurnsIsEncodedAsTheApiExpects() throws Exception {
        // SPEC SP-4: the fake rejects what OpenAI would reject, so a 200 here proves the shape
        ToolCall earlier = new ToolCall("call_7", "file_read", JSON.readTree("{\"path\":\"a.txt\"}"));
        ChatRequest req = new ChatRequest(
                "gpt-test",
                List.of(
                        ChatMessage.system("sys"),
                        ChatMessage.user("read a.txt"),
                        ChatMessage.assistant("", List.of(earlier)),
                        ChatMessage.tool("call_7", "file_read", "contents"),
                        ChatMessage.user("thanks [IMAGE:data:image/png;base64,iVBORw0KGgo=] and [IMAGE:/local/x.png] "
                                + "[IMAGE:https://example.com/c.jpg]")),
                List.of(fileWrite()),
                false,
                0.2);
        server.enqueue(Reply.text("done"));
        assertThat(provider(null)
                        .chat(req, StreamObserver.NONE, CancelToken.none())
                        .text())
                .isEqualTo("done");
        JsonNode msgs = server.lastRequest().messages();
        assertThat(msgs.get(2).path("content").isNull()).isTrue();
        JsonNode call = msgs.get(2).path("tool_calls").get(0);
        assertThat(call.path("id").asText()).isEqualTo("call_7");
        assertThat(call.path("type").asText()).isEqualTo("function");
        assertThat(JSON.readTree(call.path("function").path("arguments").asText())
                        .path("path")
                        .asText())
                .isEqualTo("a.txt");
        assertThat(msgs.get(3).path("role").asText()).isEqualTo("tool");
        assertThat(msgs.get(3).path("tool_call_id").asText()).isEqualTo("call_7");
        JsonNode parts = msgs.get(4).path("content");
        assertThat(parts.findValuesAsText("type")).containsExactly("text", "image_url", "text");
        assertThat(parts.get(1).path("image_url").path("url").asText()).startsWith("data:image/png;base64,");
        // SPEC AG-4: a remote URL is never passed on for the API to fetch
        assertThat(parts.get(2).path("text").asText())
                .isEqualTo("and [IMAGE:/local/x.png] [IMAGE:https://example.com/c.jpg]");
        assertThat(server.lastRequest().body().path("temperature").asDouble()).isEqualTo(0.2);
    }

    @Test
    void noAuthorizationHeaderIsSentWithoutAKey() throws Exception {
        // SPEC SP-4: local servers need none
        server.enqueue(Reply.text("a"));
        provider(null).chat(request(false, List.of()), StreamObserver.NONE, CancelToken.none());
        assertThat(server.lastRequest().header("authorization")).isNull();
        assertThat(server.lastRequest().headers()).doesNotContainKey("authorization");
    }

    @Test
    void aConfiguredKeyIsSentAsBearerToken() throws Exception {
        // SPEC SP-4
        server.requireApiKey("sk-local-123456").enqueue(Reply.text("a"));
        assertThat(provider("sk-local-123456")
                        .chat(request(false, List.of()), StreamObserver.NONE, CancelToken.none())
                        .text())
                .isEqualTo("a");
        assertThat(server.lastRequest().header("authorization")).isEqualTo("Bearer sk-local-123456");
    }

    @Test
    void aBlankModelFallsBackToTheConfiguredDefault() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("a"));
        provider(null)
                .chat(
                        new ChatRequest("", List.of(ChatMessage.user("x")), List.of(), false, null),
                        StreamObserver.NONE,
                        CancelToken.none());
        assertThat(server.lastRequest().model()).isEqualTo("gpt-test");
    }

    @Test
    void modelsAreListedFromTheModelsEndpoint() throws Exception {
        // SPEC SP-4
        server.models("llama3", "qwen2");
        assertThat(provider(null).listModels(CancelToken.none())).containsExactly("llama3", "qwen2");
        assertThat(server.lastRequest().method()).isEqualTo("GET");
        assertThat(server.lastRequest().path()).isEqualTo("/v1/models");
    }

    @Test
    void theFactoryIsFoundThroughServiceLoaderForKindOpenai() {
        // SPEC SP-4
        ProviderFactory factory = ServiceLoader.load(ProviderFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.kind().equals("openai"))
                .findFirst()
                .orElseThrow();
        Provider p = factory.create(settings(server, null));
        assertThat(p).isInstanceOf(OpenAiProvider.class);
        opened.add((OpenAiProvider) p);
        assertThat(p.name()).isEqualTo("local");
        assertThat(p.capabilities().nativeTools()).isTrue();
        assertThat(p.capabilities().streaming()).isTrue();
        Provider promptGuided = factory.create(new ProviderSettings("p", "openai", null, null, false, "m", 0));
        opened.add((OpenAiProvider) promptGuided);
        assertThat(promptGuided.capabilities().nativeTools()).isFalse();
    }
}
