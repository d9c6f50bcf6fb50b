package dev.clawgate.provider.anthropic;

import static dev.clawgate.testkit.anthropic.Reply.toolUse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

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
import dev.clawgate.testkit.anthropic.FakeAnthropicServer;
import dev.clawgate.testkit.anthropic.RecordedRequest;
import dev.clawgate.testkit.anthropic.Reply;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Anthropic Messages provider against a fake API over loopback: the real client path (SPEC SP-4). */
class AnthropicProviderTest {
    static final String KEY = "sk-ant-api03-TESTKEY0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FakeAnthropicServer server = FakeAnthropicServer.start();
    private final List<AnthropicProvider> opened = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        opened.forEach(AnthropicProvider::close);
        server.close();
    }

    static ProviderSettings settings(FakeAnthropicServer server, Boolean nativeTools, Integer maxTokens) {
        return new ProviderSettings(
                "claude", "anthropic", server.baseUrl(), KEY, nativeTools, "claude-test", 10, maxTokens);
    }

    private AnthropicProvider provider() {
        return provider(settings(server, null, null));
    }

    private AnthropicProvider provider(ProviderSettings s) {
        AnthropicProvider p = new AnthropicProvider(s);
        opened.add(p);
        return p;
    }

    private static ChatRequest request(boolean stream, List<ToolSpec> tools) {
        return new ChatRequest(
                "claude-test", List.of(ChatMessage.system("be brief"), ChatMessage.user("hello")), tools, stream, null);
    }

    static ToolSpec fileWrite() throws Exception {
        return new ToolSpec(
                "file_write",
                "Write a file",
                JSON.readTree(
                        "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"content\":{\"type\":\""
                                + "string\"}},"
                                + "\"required\":[\"path\"]}"));
    }

    @Test
    void aPlainAnswerComesBackWithUsageAndTheRequestHasTheMessagesShape() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("hi there").usage(12, 3));
        ChatResponse r = provider().chat(request(false, List.of()), StreamObserver.NONE, CancelToken.none());
        assertThat(r.text()).isEqualTo("hi there");
        assertThat(r.toolCalls()).isEmpty();
        assertThat(r.finishReason()).isEqualTo("stop");
        assertThat(r.usage().promptTokens()).isEqualTo(12);
        assertThat(r.usage().completionTokens()).isEqualTo(3);
        RecordedRequest sent = server.lastRequest();
        assertThat(sent.path()).isEqualTo("/v1/messages");
        assertThat(sent.header("x-api-key")).isEqualTo(KEY);
        assertThat(sent.header("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(sent.header("content-type")).isEqualTo("application/json");
        assertThat(sent.headers()).doesNotContainKey("authorization");
        assertThat(sent.model()).isEqualTo("claude-test");
        assertThat(sent.body().path("max_tokens").asInt()).isEqualTo(AnthropicProvider.DEFAULT_MAX_TOKENS);
        assertThat(sent.system().asText()).isEqualTo("be brief");
        assertThat(sent.messages()).hasSize(1);
        assertThat(sent.messages().get(0).path("role").asText()).isEqualTo("user");
        assertThat(sent.messages().get(0).path("content").get(0).path("text").asText())
                .isEqualTo("hello");
        assertThat(sent.stream()).isFalse();
        assertThat(sent.body().has("tools")).isFalse();
    }

    @Test
    void streamedTextReachesTheObserverDeltaByDeltaInOrder() throws Exception {
        // SPEC SP-4: deltas flow through the same observer the incremental sanitiser reads (RP-*)
        server.enqueue(Reply.text("one two three four").usage(5, 4));
        RecordingObserver seen = new RecordingObserver();
        ChatResponse r = provider().chat(request(true, List.of()), seen, CancelToken.none());
        assertThat(seen.text).containsExactly("one", " two", " three", " four");
        assertThat(r.text()).isEqualTo("one two three four");
        assertThat(r.usage().promptTokens()).isEqualTo(5);
        assertThat(r.usage().completionTokens()).isEqualTo(4);
        assertThat(r.finishReason()).isEqualTo("stop");
        assertThat(server.lastRequest().stream()).isTrue();
        assertThat(server.lastRequest().header("accept")).isEqualTo("text/event-stream");
    }

    @Test
    void thinkingGoesToTheReasoningChannel() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("42").thinking("think hard"), Reply.text("43").thinking("again"));
        RecordingObserver seen = new RecordingObserver();
        ChatResponse r = provider().chat(request(true, List.of()), seen, CancelToken.none());
        assertThat(String.join("", seen.reasoning)).isEqualTo("think hard");
        assertThat(seen.text).containsExactly("42");
        assertThat(r.reasoning()).isEqualTo("think hard");
        assertThat(provider()
                        .chat(request(false, List.of()), seen, CancelToken.none())
                        .reasoning())
                .isEqualTo("again");
    }

    @Test
    void aToolUseRoundTripSendsToolsWithInputSchemaAndTheResultInAUserMessage() throws Exception {
        // SPEC SP-4, AG-1
        server.enqueue(Reply.text("Writing it.")
                .withToolUses(toolUse("file_write", "{\"path\":\"a.txt\",\"content\":\"x\"}")
                        .withId("toolu_01")));
        AnthropicProvider p = provider();
        ChatResponse first = p.chat(request(false, List.of(fileWrite())), StreamObserver.NONE, CancelToken.none());
        JsonNode tools = server.lastRequest().tools();
        assertThat(tools).hasSize(1);
        assertThat(tools.get(0).path("name").asText()).isEqualTo("file_write");
        assertThat(tools.get(0).path("description").asText()).isEqualTo("Write a file");
        assertThat(tools.get(0).path("input_schema").path("required").get(0).asText())
                .isEqualTo("path");
        assertThat(first.text()).isEqualTo("Writing it.");
        assertThat(first.finishReason()).isEqualTo("tool_calls");
        ToolCall call = first.toolCalls().getFirst();
        assertThat(call.id()).isEqualTo("toolu_01");
        assertThat(call.arguments().path("path").asText()).isEqualTo("a.txt");

        // the follow-up, as the agent loop builds it: the fake rejects an unmatched or misplaced tool_result
        server.enqueue(Reply.text("Done."));
        ChatRequest followUp = new ChatRequest(
                "claude-test",
                List.of(
                        ChatMessage.system("be brief"),
                        ChatMessage.user("hello"),
                        ChatMessage.assistant(first.text(), first.toolCalls()),
                        ChatMessage.tool("toolu_01", "file_write", "wrote 1 byte")),
                List.of(fileWrite()),
                false,
                null);
        assertThat(p.chat(followUp, StreamObserver.NONE, CancelToken.none()).text())
                .isEqualTo("Done.");
        JsonNode msgs = server.lastRequest().messages();
        assertThat(msgs.findValuesAsText("role")).containsExactly("user", "assistant", "user");
        JsonNode assistant = msgs.get(1).path("content");
        assertThat(assistant).extracting(b -> b.path("type").asText()).containsExactly("text", "tool_use");
        assertThat(assistant.get(1).path("id").asText()).isEqualTo("toolu_01");
        assertThat(assistant.get(1).path("input").path("content").asText()).isEqualTo("x");
        JsonNode result = msgs.get(2).path("content").get(0);
        assertThat(result.path("type").asText()).isEqualTo("tool_result");
        assertThat(result.path("tool_use_id").asText()).isEqualTo("toolu_01");
        assertThat(result.path("content").asText()).isEqualTo("wrote 1 byte");
        assertThat(result.has("is_error")).isFalse();
    }

    @Test
    void streamedToolUseInputIsAssembledFromItsJsonFragments() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.toolUses(
                toolUse("file_write", "{\"path\":\"notes/today.txt\",\"content\":\"buy milk and eggs\"}")
                        .withId("toolu_1"),
                toolUse("file_read", "{\"path\":\"a.txt\"}").withId("toolu_2"),
                toolUse("file_list", "").withId("toolu_3")));
        RecordingObserver seen = new RecordingObserver();
        ChatResponse r = provider().chat(request(true, List.of(fileWrite())), seen, CancelToken.none());
        assertThat(seen.text).isEmpty();
        assertThat(r.finishReason()).isEqualTo("tool_calls");
        assertThat(r.toolCalls())
                .extracting(ToolCall::id, ToolCall::name)
                .containsExactly(
                        tuple("toolu_1", "file_write"), tuple("toolu_2", "file_read"), tuple("toolu_3", "file_list"));
        assertThat(r.toolCalls().get(0).arguments().path("content").asText()).isEqualTo("buy milk and eggs");
        assertThat(r.toolCalls().get(1).arguments().path("path").asText()).isEqualTo("a.txt");
        assertThat(r.toolCalls().get(2).arguments().isEmpty()).isTrue();
        assertThat(r.toolCalls()).noneMatch(ToolCall::malformed);
    }

    @Test
    void brokenStreamedToolInputBecomesAParseErrorNotAnException() throws Exception {
        // SPEC SP-4 (AG-1: malformed calls are reported back to the model)
        server.enqueue(Reply.toolUses(toolUse("shell", "{\"command\": \"ls -la").withId("bad1")));
        ChatResponse r = provider().chat(request(true, List.of()), StreamObserver.NONE, CancelToken.none());
        assertThat(r.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("shell");
            assertThat(c.malformed()).isTrue();
            assertThat(c.parseError()).contains("not valid JSON").contains("ls -la");
        });
    }

    @Test
    void onlyInlinedImagesBecomeImageBlocksAndARemoteUrlStaysText() throws Exception {
        // SPEC AG-4: markers the pipeline inlined hold data URIs; a remote URL is never handed to the API
        // to fetch (multimodal.allow_remote_fetch is the pipeline's to apply), nor is a local path it did not resolve
        server.enqueue(Reply.text("a cat"));
        ChatRequest req = new ChatRequest(
                "claude-test",
                List.of(ChatMessage.user(
                        "what is this [IMAGE:data:image/png;base64,iVBORw0KGgo=] and [IMAGE:https://example.com/c.jpg] "
                                + "and [IMAGE:/local/x.png]")),
                List.of(),
                false,
                null);
        assertThat(provider().chat(req, StreamObserver.NONE, CancelToken.none()).text())
                .isEqualTo("a cat");
        JsonNode blocks = server.lastRequest().messages().get(0).path("content");
        assertThat(blocks).extracting(b -> b.path("type").asText()).containsExactly("text", "image", "text");
        JsonNode source = blocks.get(1).path("source");
        assertThat(source.path("type").asText()).isEqualTo("base64");
        assertThat(source.path("media_type").asText()).isEqualTo("image/png");
        assertThat(source.path("data").asText()).isEqualTo("iVBORw0KGgo=");
        assertThat(blocks.get(2).path("text").asText())
                .isEqualTo("and [IMAGE:https://example.com/c.jpg] and [IMAGE:/local/x.png]");
        assertThat(server.lastRequest().bodyText()).doesNotContain("\"url\"");
    }

    @Test
    void consecutiveMessagesOfOneRoleAreMergedSoRolesAlternate() throws Exception {
        // SPEC SP-4, HI-3: steered messages after tool results, two system parts, an empty assistant turn
        server.enqueue(Reply.text("ok"));
        ToolCall call = new ToolCall("toolu_9", "file_read", JSON.readTree("{\"path\":\"a\"}"));
        ChatRequest req = new ChatRequest(
                "claude-test",
                List.of(
                        ChatMessage.system("part one"),
                        ChatMessage.user("first"),
                        ChatMessage.user("second"),
                        ChatMessage.assistant(""),
                        ChatMessage.assistant("", List.of(call)),
                        ChatMessage.tool("toolu_9", "file_read", "Error: no such file"),
                        ChatMessage.user("also this"),
                        ChatMessage.system("part two")),
                List.of(),
                false,
                null);
        provider().chat(req, StreamObserver.NONE, CancelToken.none());
        RecordedRequest sent = server.lastRequest();
        assertThat(sent.system().asText()).isEqualTo("part one\n\npart two");
        JsonNode msgs = sent.messages();
        assertThat(msgs.findValuesAsText("role")).containsExactly("user", "assistant", "user");
        assertThat(msgs.get(0).path("content").findValuesAsText("text")).containsExactly("first", "second");
        JsonNode last = msgs.get(2).path("content");
        assertThat(last).extracting(b -> b.path("type").asText()).containsExactly("tool_result", "text");
        assertThat(last.get(0).path("is_error").asBoolean()).isTrue();
        assertThat(last.get(1).path("text").asText()).isEqualTo("also this");
    }

    @Test
    void maxTokensComesFromTheSettings() throws Exception {
        // SPEC SP-4: the API requires max_tokens; the fake refuses a request without it
        server.enqueue(Reply.text("ok"));
        provider(settings(server, null, 1024)).chat(request(false, List.of()), StreamObserver.NONE, CancelToken.none());
        assertThat(server.lastRequest().body().path("max_tokens").asInt()).isEqualTo(1024);
    }

    @Test
    void withNativeToolsOffToolCallTagsInTextAreLeftForThePromptGuidedParser() throws Exception {
        // SPEC SP-3: the loop sends no tools and reads <tool_call> tags from the text
        AnthropicProvider p = provider(settings(server, false, null));
        assertThat(p.capabilities().nativeTools()).isFalse();
        server.enqueue(Reply.text(
                "Checking.\n<tool_call>{\"name\": \"file_read\", \"arguments\": {\"path\": \"a\"}}</tool_call>"));
        ChatResponse r = p.chat(request(true, List.of()), StreamObserver.NONE, CancelToken.none());
        assertThat(r.toolCalls()).isEmpty();
        assertThat(r.text()).contains("<tool_call>").contains("\"file_read\"");
        assertThat(server.lastRequest().body().has("tools")).isFalse();
    }

    @Test
    void aBlankModelFallsBackToTheConfiguredDefault() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("a"));
        provider()
                .chat(
                        new ChatRequest("", List.of(ChatMessage.user("x")), List.of(), false, null),
                        StreamObserver.NONE,
                        CancelToken.none());
        assertThat(server.lastRequest().model()).isEqualTo("claude-test");
    }

    @Test
    void aBaseUrlWithV1AndOneWithoutReachTheSameEndpoint() {
        // SPEC SP-4
        assertThat(AnthropicProvider.apiRoot(null).toString()).isEqualTo("https://api.anthropic.com/v1");
        assertThat(AnthropicProvider.apiRoot("https://api.anthropic.com/v1/").toString())
                .isEqualTo("https://api.anthropic.com/v1");
        assertThat(AnthropicProvider.apiRoot("http://127.0.0.1:9/").toString()).isEqualTo("http://127.0.0.1:9/v1");
    }

    @Test
    void modelsAreListedFromTheModelsEndpoint() throws Exception {
        // SPEC SP-4
        server.models("claude-a", "claude-b");
        assertThat(provider().listModels(CancelToken.none())).containsExactly("claude-a", "claude-b");
        assertThat(server.lastRequest().method()).isEqualTo("GET");
        assertThat(server.lastRequest().path()).isEqualTo("/v1/models");
        assertThat(server.lastRequest().header("x-api-key")).isEqualTo(KEY);
    }

    @Test
    void theFactoryIsFoundThroughServiceLoaderForKindAnthropic() {
        // SPEC SP-4
        ProviderFactory factory = ServiceLoader.load(ProviderFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.kind().equals("anthropic"))
                .findFirst()
                .orElseThrow();
        Provider p = factory.create(settings(server, null, null));
        assertThat(p).isInstanceOf(AnthropicProvider.class);
        opened.add((AnthropicProvider) p);
        assertThat(p.name()).isEqualTo("claude");
        assertThat(p.capabilities().nativeTools()).isTrue();
        assertThat(p.capabilities().vision()).isTrue();
        assertThat(p.capabilities().streaming()).isTrue();
    }
}
