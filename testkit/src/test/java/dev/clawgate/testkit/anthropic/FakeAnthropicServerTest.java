package dev.clawgate.testkit.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fake Messages API answers and refuses as the real one does (SPEC SP-4). */
class FakeAnthropicServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final FakeAnthropicServer server = FakeAnthropicServer.start();

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> post(String body, boolean withKey) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/messages"))
                .header("content-type", "application/json")
                .header("anthropic-version", "2023-06-01")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (withKey) b.header("x-api-key", "k");
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String body(String messages) {
        return "{\"model\":\"m\",\"max_tokens\":10,\"messages\":" + messages + "}";
    }

    private String invalid(String body) throws Exception {
        HttpResponse<String> r = post(body, true);
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode err = JSON.readTree(r.body());
        assertThat(err.path("type").asText()).isEqualTo("error");
        assertThat(err.path("error").path("type").asText()).isEqualTo("invalid_request_error");
        return err.path("error").path("message").asText();
    }

    @Test
    void anEchoIsAMessageObjectWithUsage() throws Exception {
        // SPEC SP-4
        HttpResponse<String> r = post(body("[{\"role\":\"user\",\"content\":\"ping me\"}]"), true);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode m = JSON.readTree(r.body());
        assertThat(m.path("type").asText()).isEqualTo("message");
        assertThat(m.path("content").get(0).path("text").asText()).isEqualTo("ping me");
        assertThat(m.path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(m.path("usage").path("input_tokens").asLong()).isPositive();
        assertThat(server.lastRequest().lastUserText()).isEqualTo("ping me");
    }

    @Test
    void aStreamIsNamedEventsFromMessageStartToMessageStop() throws Exception {
        // SPEC SP-4
        server.enqueue(
                Reply.text("a b").withToolUses(Reply.toolUse("f", "{\"x\":1}").withId("toolu_1")));
        HttpResponse<String> r = post(
                "{\"model\":\"m\",\"max_tokens\":10,\"stream\":true,"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                true);
        assertThat(r.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        List<String> names = new ArrayList<>();
        StringBuilder partial = new StringBuilder();
        for (String line : r.body().split("\n")) {
            if (line.startsWith("event: ")) names.add(line.substring(7));
            if (line.startsWith("data: ")) {
                JsonNode d = JSON.readTree(line.substring(6));
                assertThat(d.path("type").asText()).isEqualTo(names.getLast());
                partial.append(d.path("delta").path("partial_json").asText(""));
            }
        }
        assertThat(names)
                .containsExactly(
                        "message_start",
                        "content_block_start",
                        "ping",
                        "content_block_delta",
                        "content_block_delta",
                        "content_block_stop",
                        "content_block_start",
                        "content_block_delta",
                        "content_block_delta",
                        "content_block_stop",
                        "message_delta",
                        "message_stop");
        assertThat(partial).hasToString("{\"x\":1}");
    }

    @Test
    void aMissingKeyIs401AuthenticationError() throws Exception {
        // SPEC SP-4
        HttpResponse<String> r = post(body("[{\"role\":\"user\",\"content\":\"hi\"}]"), false);
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(r.body()).path("error").path("type").asText()).isEqualTo("authentication_error");
    }

    @Test
    void requestsTheApiWouldRefuseAreRefused() throws Exception {
        // SPEC SP-4
        assertThat(invalid("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .isEqualTo("max_tokens: Field required");
        assertThat(invalid(body("[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"user\",\"content\":\"b\"}]")))
                .contains("roles must alternate");
        assertThat(invalid(body("[{\"role\":\"system\",\"content\":\"a\"}]"))).contains("top-level `system`");
        assertThat(invalid(body("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"\"}]}]")))
                .contains("text content blocks must be non-empty");
        assertThat(invalid(body("[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\",\"content\":"
                        + "\"b\"},"
                        + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_u"
                        + "se_id\":\"toolu_x\",\"content\":\"r\"}]}]")))
                .contains("unexpected `tool_use_id`", "toolu_x");
        assertThat(invalid(body("[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\",\"content\":["
                        + "{\"type\":"
                        + "\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}]},{\""
                        + "role\":\"user\",\"content\":\"next\"}]")))
                .contains("`tool_use` ids were found without `tool_result` blocks", "toolu_1");
        assertThat(invalid("{\"model\":\"m\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\",\"content\":\"a\"}],"
                        + "\"tools\":[{\"name\":\"f\",\"parameters\":{}}]}"))
                .isEqualTo("tools.0.input_schema: Field required");
        assertThat(invalid(body("[{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"base64\","
                        + "\"media_type\":\"image/bmp\",\"data\":\"AA==\"}}]}]")))
                .contains("media_type");
    }

    @Test
    void aToolResultAnsweringThePreviousToolUseIsAccepted() throws Exception {
        // SPEC SP-4
        HttpResponse<String> r = post(
                body("[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\",\"content\":"
                        + "[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}]},{\"role\":\"user"
                        + "\",\"content\":"
                        + "[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"r\",\"is_error\":fals"
                        + "e},"
                        + "{\"type\":\"text\",\"text\":\"go on\"}]}]"),
                true);
        assertThat(r.statusCode()).isEqualTo(200);
    }

    @Test
    void scriptedErrorsCarryTheirStatusAndHeaders() throws Exception {
        // SPEC SP-4
        server.enqueue(Reply.rateLimited(Duration.ofSeconds(4)), Reply.overloaded());
        HttpResponse<String> limited = post(body("[{\"role\":\"user\",\"content\":\"a\"}]"), true);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("retry-after")).contains("4");
        assertThat(JSON.readTree(limited.body()).path("error").path("type").asText())
                .isEqualTo("rate_limit_error");
        assertThat(post(body("[{\"role\":\"user\",\"content\":\"a\"}]"), true).statusCode())
                .isEqualTo(529);
        assertThat(server.messageRequests()).hasSize(2);
    }
}
