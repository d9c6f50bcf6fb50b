package dev.clawgate.testkit.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fake Gemini API answers and refuses as the real one does (SPEC SP-4). */
class FakeGeminiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String KEY = "AIzaFAKE";
    private final FakeGeminiServer server = FakeGeminiServer.start();

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> post(String method, String body, String key) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create(server.baseUrl() + "/models/gemini-2.5-flash:" + method))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) b.header("x-goog-api-key", key);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String invalid(String body) throws Exception {
        HttpResponse<String> r = post("generateContent", body, KEY);
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode err = JSON.readTree(r.body()).path("error");
        assertThat(err.path("status").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(err.path("code").asInt()).isEqualTo(400);
        return err.path("message").asText();
    }

    @Test
    void anEchoIsACandidateWithUsage() throws Exception {
        HttpResponse<String> r =
                post("generateContent", "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"ping me\"}]}]}", KEY);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode c = JSON.readTree(r.body());
        assertThat(c.path("candidates")
                        .get(0)
                        .path("content")
                        .path("parts")
                        .get(0)
                        .path("text")
                        .asText())
                .isEqualTo("ping me");
        assertThat(c.path("candidates").get(0).path("finishReason").asText()).isEqualTo("STOP");
        assertThat(c.path("usageMetadata").path("promptTokenCount").asLong()).isPositive();
        assertThat(server.lastRequest().model()).isEqualTo("gemini-2.5-flash");
    }

    @Test
    void withoutAKeyTheApiRefusesAndAWrongKeyIsApiKeyInvalid() throws Exception {
        String body = "{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}";
        HttpResponse<String> none = post("generateContent", body, null);
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(none.body()).path("error").path("status").asText())
                .isEqualTo("PERMISSION_DENIED");
        server.requireApiKey(KEY);
        HttpResponse<String> wrong = post("generateContent", body, "AIzaWRONG");
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(wrong.body())
                        .path("error")
                        .path("details")
                        .get(0)
                        .path("reason")
                        .asText())
                .isEqualTo("API_KEY_INVALID");
        HttpResponse<String> inQuery = HTTP.send(
                HttpRequest.newBuilder(
                                URI.create(server.baseUrl() + "/models/gemini-2.5-flash:generateContent?key=" + KEY))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(inQuery.statusCode()).isEqualTo(200);
    }

    @Test
    void requestsTheApiWouldRefuseAreRefused() throws Exception {
        assertThat(invalid("{}")).contains("contents is not specified");
        assertThat(invalid("{\"contents\":[{\"role\":\"assistant\",\"parts\":[{\"text\":\"x\"}]}]}"))
                .contains("valid role");
        assertThat(invalid("{\"contents\":[{\"role\":\"user\",\"parts\":[]}]}")).contains("must not be empty");
        assertThat(invalid("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"a\",\"inlineData\":{\"mimeT"
                        + "ype\":\"image/png\",\"data\":\"AA==\"}}]}]}"))
                .contains("oneof");
        assertThat(invalid("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"inlineData\":{\"mimeType\":\"image/p"
                        + "ng\",\"data\":\"%%%\"}}]}]}"))
                .contains("Base64 decoding failed");
        // a function call answered by the wrong number of responses
        assertThat(invalid("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"go\"}]},"
                        + "{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"a\",\"args\":"
                        + "{}}},{\"functionCall\":{\"name\":\"b\",\"args\":{}}}]},"
                        + "{\"role\":\"user\",\"parts\":[{\"functionResponse\":{\"name\":\"a\",\"resp"
                        + "onse\":{\"output\":\"1\"}}}]}]}"))
                .contains("number of function response parts");
        // a function call left unanswered
        assertThat(invalid("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"go\"}]},"
                        + "{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"a\",\"args\":{}}}]},"
                        + "{\"role\":\"user\",\"parts\":[{\"text\":\"and?\"}]}]}"))
                .contains("function call turn");
        assertThat(invalid("{\"contents\":[{\"parts\":[{\"text\":\"x\"}]}],\"tools\":[{\"functionDeclarations\":"
                        + "[{\"name\":\"9bad name\"}]}]}"))
                .contains("Invalid function name");
        assertThat(invalid("{\"contents\":[{\"parts\":[{\"text\":\"x\"}]}],\"generationConfig\":{\"temperature\":3}}"))
                .contains("temperature");
    }

    @Test
    void aStreamIsSseWithAltSseAndAJsonArrayWithout() throws Exception {
        String body = "{\"contents\":[{\"parts\":[{\"text\":\"one two three\"}]}]}";
        HttpResponse<String> sse = HTTP.send(
                HttpRequest.newBuilder(
                                URI.create(server.baseUrl() + "/models/gemini-2.5-flash:streamGenerateContent?alt=sse"))
                        .header("x-goog-api-key", KEY)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(sse.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        List<String> events =
                sse.body().lines().filter(l -> l.startsWith("data: ")).toList();
        assertThat(events).hasSize(3);
        assertThat(JSON.readTree(events.getLast().substring(6))
                        .path("candidates")
                        .get(0)
                        .path("finishReason")
                        .asText())
                .isEqualTo("STOP");
        assertThat(JSON.readTree(events.getFirst().substring(6))
                        .path("candidates")
                        .get(0)
                        .has("finishReason"))
                .isFalse();

        server.enqueue(Reply.text("one two three"));
        HttpResponse<String> array = post("streamGenerateContent", body, KEY);
        JsonNode chunks = JSON.readTree(array.body());
        assertThat(chunks.isArray()).isTrue();
        assertThat(chunks).hasSize(3);
    }

    @Test
    void aRateLimitCarriesRetryInfoAndTheModelListNamesGenerators() throws Exception {
        server.enqueue(Reply.rateLimited(Duration.ofMillis(2500)));
        HttpResponse<String> r = post("generateContent", "{\"contents\":[{\"parts\":[{\"text\":\"x\"}]}]}", KEY);
        assertThat(r.statusCode()).isEqualTo(429);
        JsonNode details = JSON.readTree(r.body()).path("error").path("details");
        assertThat(details.findValuesAsText("retryDelay")).containsExactly("2.5s");
        HttpResponse<String> models = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/models"))
                        .header("x-goog-api-key", KEY)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(JSON.readTree(models.body()).path("models").findValuesAsText("name"))
                .contains("models/gemini-2.5-flash");
        HttpResponse<String> unknown = HTTP.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/models/no-such-model:generateContent"))
                        .header("x-goog-api-key", KEY)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"contents\":[{\"parts\":[{\"text\":\"x\"}]}]}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(unknown.statusCode()).isEqualTo(404);
    }
}
