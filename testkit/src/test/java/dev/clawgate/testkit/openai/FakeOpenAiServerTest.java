package dev.clawgate.testkit.openai;

import static dev.clawgate.testkit.openai.Reply.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fake must speak OpenAI's wire format exactly, or provider tests prove nothing (SPEC SP-4). */
class FakeOpenAiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void stop() {
        server.close();
        client.close();
    }

    private HttpResponse<String> post(String body) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                        .header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String chat(boolean stream, boolean usage) {
        return "{\"model\":\"m1\",\"stream\":" + stream + (usage ? ",\"stream_options\":{\"include_usage\":true}" : "")
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"hello there\"}]}";
    }

    private static List<JsonNode> events(String sse) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String block : sse.split("\n\n")) {
            assertThat(block).startsWith("data: ");
            String data = block.substring(6);
            out.add(data.equals("[DONE]") ? null : JSON.readTree(data));
        }
        return out;
    }

    @Test
    void baseUrlIsALoopbackAddressEndingInV1() {
        // SPEC SP-4
        assertThat(server.baseUrl()).matches("http://127\\.0\\.0\\.1:\\d+/v1");
    }

    @Test
    void nonStreamedTextIsAChatCompletionObject() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("hi"));
        HttpResponse<String> r = post(chat(false, false));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.path("object").asText()).isEqualTo("chat.completion");
        assertThat(body.path("id").asText()).startsWith("chatcmpl-");
        assertThat(body.path("model").asText()).isEqualTo("m1");
        assertThat(body.path("created").asLong()).isPositive();
        JsonNode choice = body.path("choices").get(0);
        assertThat(choice.path("message").path("role").asText()).isEqualTo("assistant");
        assertThat(choice.path("message").path("content").asText()).isEqualTo("hi");
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
        assertThat(body.path("usage").path("total_tokens").asLong())
                .isEqualTo(body.path("usage").path("prompt_tokens").asLong()
                        + body.path("usage").path("completion_tokens").asLong());
    }

    @Test
    void streamedTextIsChunksThenFinishThenUsageThenDone() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("one two three").usage(7, 3));
        HttpResponse<String> r = post(chat(true, true));
        assertThat(r.headers().firstValue("content-type").orElseThrow()).startsWith("text/event-stream");
        List<JsonNode> ev = events(r.body());
        assertThat(ev.getLast()).isNull();
        assertThat(ev.getFirst().path("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(ev.getFirst()
                        .path("choices")
                        .get(0)
                        .path("delta")
                        .path("role")
                        .asText())
                .isEqualTo("assistant");
        StringBuilder text = new StringBuilder();
        for (JsonNode e : ev.subList(0, ev.size() - 1)) {
            if (e.path("choices").isEmpty()) continue;
            text.append(e.path("choices").get(0).path("delta").path("content").asText(""));
        }
        assertThat(text).hasToString("one two three");
        JsonNode finish = ev.get(ev.size() - 3);
        assertThat(finish.path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");
        JsonNode usage = ev.get(ev.size() - 2);
        assertThat(usage.path("choices")).isEmpty();
        assertThat(usage.path("usage").path("prompt_tokens").asLong()).isEqualTo(7);
        assertThat(usage.path("usage").path("completion_tokens").asLong()).isEqualTo(3);
    }

    @Test
    void streamWithoutIncludeUsageHasNoUsageChunk() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("abc"));
        List<JsonNode> ev = events(post(chat(true, false)).body());
        assertThat(ev.subList(0, ev.size() - 1)).allSatisfy(e -> {
            assertThat(e.has("usage")).isFalse();
            assertThat(e.path("choices")).hasSize(1);
        });
    }

    @Test
    void streamedInChunksSplitsTheContentIntoExactlyThatManyDeltas() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("abcdefghij").streamedInChunks(4));
        List<JsonNode> ev = events(post(chat(true, false)).body());
        List<String> deltas = new ArrayList<>();
        for (JsonNode e : ev.subList(1, ev.size() - 2))
            deltas.add(e.path("choices").get(0).path("delta").path("content").asText());
        assertThat(deltas).hasSize(4);
        assertThat(String.join("", deltas)).isEqualTo("abcdefghij");
    }

    @Test
    void streamedToolCallsCarryIndexIdAndNameThenArgumentFragments() throws Exception {
        // SPEC SP-4
        String args = "{\"path\":\"notes/a.txt\",\"content\":\"hello world\"}";
        server.enqueue(Reply.toolCalls(
                call("file_write", args).withId("call_a"),
                call("file_read", "{\"path\":\"b\"}").withId("call_b")));
        List<JsonNode> ev = events(post(chat(true, false)).body());
        JsonNode first = ev.getFirst().path("choices").get(0).path("delta");
        assertThat(first.path("role").asText()).isEqualTo("assistant");
        assertThat(first.path("content").isNull()).isTrue();
        assertThat(first.path("tool_calls").get(0).path("id").asText()).isEqualTo("call_a");
        assertThat(first.path("tool_calls").get(0).path("function").path("name").asText())
                .isEqualTo("file_write");
        StringBuilder[] assembled = {new StringBuilder(), new StringBuilder()};
        String[] names = new String[2];
        int argumentChunks = 0;
        for (JsonNode e : ev.subList(0, ev.size() - 1)) {
            for (JsonNode tc : e.path("choices").get(0).path("delta").path("tool_calls")) {
                int i = tc.path("index").asInt();
                if (tc.has("id")) names[i] = tc.path("function").path("name").asText();
                else argumentChunks++;
                assembled[i].append(tc.path("function").path("arguments").asText());
            }
        }
        assertThat(names).containsExactly("file_write", "file_read");
        assertThat(assembled[0]).hasToString(args);
        assertThat(assembled[1]).hasToString("{\"path\":\"b\"}");
        assertThat(argumentChunks).isGreaterThan(2);
        assertThat(ev.get(ev.size() - 2)
                        .path("choices")
                        .get(0)
                        .path("finish_reason")
                        .asText())
                .isEqualTo("tool_calls");
    }

    @Test
    void nonStreamedToolCallsHaveStringArgumentsAndNullContent() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.toolCalls(call("shell", "{not json").withId("call_x")));
        JsonNode msg = JSON.readTree(post(chat(false, false)).body())
                .path("choices")
                .get(0)
                .path("message");
        assertThat(msg.path("content").isNull()).isTrue();
        JsonNode tc = msg.path("tool_calls").get(0);
        assertThat(tc.path("id").asText()).isEqualTo("call_x");
        assertThat(tc.path("type").asText()).isEqualTo("function");
        assertThat(tc.path("function").path("arguments").isTextual()).isTrue();
        assertThat(tc.path("function").path("arguments").asText()).isEqualTo("{not json");
    }

    @Test
    void toolCallTagsArePlainTextContent() throws Exception {
        // SPEC SP-3
        server.enqueue(Reply.textWithToolCallTags("Let me look.", call("file_read", "{\"path\":\"a\"}")));
        JsonNode msg = JSON.readTree(post(chat(false, false)).body())
                .path("choices")
                .get(0)
                .path("message");
        assertThat(msg.has("tool_calls")).isFalse();
        assertThat(msg.path("content").asText())
                .isEqualTo("Let me look.\n<tool_call>\n{\"name\": \"file_read\", \"arguments\": "
                        + "{\"path\":\"a\"}}\n</tool_call>");
    }

    @Test
    void errorRepliesKeepStatusHeadersAndBodyEvenWhenStreaming() throws Exception {
        // SPEC HI-5
        server.enqueue(
                Reply.error(429, "{\"error\":{\"message\":\"slow down\"}}").header("retry-after", "2"),
                Reply.contextLengthExceeded());
        HttpResponse<String> r = post(chat(true, true));
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("retry-after")).hasValue("2");
        assertThat(r.body()).isEqualTo("{\"error\":{\"message\":\"slow down\"}}");
        HttpResponse<String> overflow = post(chat(false, false));
        assertThat(overflow.statusCode()).isEqualTo(400);
        JsonNode err = JSON.readTree(overflow.body()).path("error");
        assertThat(err.path("code").asText()).isEqualTo("context_length_exceeded");
        assertThat(err.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(err.path("message").asText()).startsWith("This model's maximum context length is");
    }

    @Test
    void emptyQueueAsksTheResponderThenEchoesTheLastUserMessage() throws Exception {
        // SPEC SP-4
        server.respondWith(body -> body.path("model").asText().equals("special") ? Reply.text("from responder") : null);
        assertThat(JSON.readTree(post(chat(false, false)).body())
                        .path("choices")
                        .get(0)
                        .path("message")
                        .path("content")
                        .asText())
                .isEqualTo("hello there");
        String special = "{\"model\":\"special\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
        assertThat(post(special).body()).contains("from responder");
        server.defaultReply(Reply.text("fixed"));
        assertThat(post(chat(false, false)).body()).contains("\"fixed\"");
    }

    @Test
    void requestsTheRealApiWouldRejectGetA400() throws Exception {
        // SPEC SP-4
        HttpResponse<String> r = post("{\"model\":\"m\",\"messages\":[{\"role\":\"assistant\",\"content\":null,"
                + "\"tool_calls\":[{\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"argumen"
                + "ts\":{}}}]}]}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("arguments").contains("must be a string");
        assertThat(post("not json").statusCode()).isEqualTo(400);
        assertThat(post("{\"model\":\"m\",\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}")
                        .body())
                .contains("tool_call_id");
    }

    @Test
    void everyRequestIsRecordedWithHeadersAndParsedBody() throws Exception {
        // SPEC SP-4
        client.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                        .header("Authorization", "Bearer k1")
                        .POST(HttpRequest.BodyPublishers.ofString(chat(true, false)))
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        List<RecordedRequest> reqs = server.awaitRequests(1, Duration.ofSeconds(5));
        RecordedRequest r = reqs.getFirst();
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/v1/chat/completions");
        assertThat(r.header("AUTHORIZATION")).isEqualTo("Bearer k1");
        assertThat(r.model()).isEqualTo("m1");
        assertThat(r.stream()).isTrue();
        assertThat(r.lastUserText()).isEqualTo("hello there");
        assertThat(server.chatRequests()).hasSize(1);
        assertThatThrownBy(() -> server.awaitRequests(2, Duration.ofMillis(50))).isInstanceOf(AssertionError.class);
    }

    @Test
    void modelsAreListedInOpenAiFormatAndUnknownPathsAre404() throws Exception {
        // SPEC SP-4
        server.models("a", "b");
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/models")).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.path("object").asText()).isEqualTo("list");
        assertThat(body.path("data").findValuesAsText("id")).containsExactly("a", "b");
        assertThat(client.send(
                                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/nope"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(404);
    }

    @Test
    void aRequiredKeyIsEnforcedWithOpenAisUnauthorisedShape() throws Exception {
        // SPEC SP-4
        server.requireApiKey("sk-right");
        HttpResponse<String> r = post(chat(false, false));
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(r.body()).path("error").path("message").asText())
                .contains("didn't provide an API key");
    }

    @Test
    void aClientThatClosesASlowStreamIsSeenAsADisconnect() throws Exception {
        // SPEC AG-2
        server.enqueue(Reply.text("x".repeat(200)).streamedInChunks(200).delayPerChunk(Duration.ofMillis(20)));
        HttpResponse<InputStream> r = client.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString(chat(true, false)))
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
        assertThat(reader.readLine()).startsWith("data: ");
        assertThat(server.disconnects()).isZero();
        r.body().close();
        assertThat(server.awaitClientDisconnect(Duration.ofSeconds(5))).isTrue();
        assertThat(server.disconnects()).isEqualTo(1);
    }

    @Test
    void aCompletedStreamIsNotADisconnect() throws Exception {
        // SPEC AG-2
        server.enqueue(Reply.text("done").delayPerChunk(Duration.ofMillis(1)));
        assertThat(post(chat(true, false)).body()).endsWith("data: [DONE]\n\n");
        assertThat(server.awaitClientDisconnect(Duration.ofMillis(100))).isFalse();
    }

    @Test
    void aStreamErrorEndsTheStreamWithAnErrorObjectAndNoDone() throws Exception {
        // SPEC HI-5
        server.enqueue(
                Reply.text("par tial").thenStreamError("upstream died", "502"),
                Reply.text("x").thenStreamError("e", "c"));
        List<JsonNode> ev = events(post(chat(true, false)).body());
        assertThat(ev.getLast()).isNotNull();
        assertThat(ev.getLast().path("error").path("message").asText()).isEqualTo("upstream died");
        assertThat(ev.get(1)
                        .path("choices")
                        .get(0)
                        .path("delta")
                        .path("content")
                        .asText())
                .isEqualTo("par");
        assertThat(post(chat(false, false)).statusCode()).isEqualTo(500);
    }

    @Test
    void aTruncatedStreamStopsAfterThatManyEvents() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.text("a b c d").truncatedAfter(2));
        List<JsonNode> ev = events(post(chat(true, false)).body());
        assertThat(ev).hasSize(2).doesNotContainNull();
    }
}
