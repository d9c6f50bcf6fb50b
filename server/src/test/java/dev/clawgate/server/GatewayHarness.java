package dev.clawgate.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.AgentSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.GatewaySettings;
import dev.clawgate.core.config.ProviderSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds configs pointing at a fake model server, and talks to a gateway over real HTTP. */
final class GatewayHarness {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private GatewayHarness() {}

    static ClawgateConfig config(Path dir, String baseUrl, String authToken) {
        ClawgateConfig d = ClawgateConfig.defaults();
        AgentSettings a = d.agent();
        Map<String, ProviderSettings> providers = baseUrl == null
                ? Map.of()
                : Map.of(
                        "fake",
                        new ProviderSettings("fake", "openai", baseUrl, "sk-test-key-0000", true, "gpt-test", 30));
        return new ClawgateConfig(
                new GatewaySettings(dir.resolve("data"), "127.0.0.1:0", authToken),
                new AgentSettings(
                        null,
                        null,
                        a.maxToolIterations(),
                        a.messageTimeoutSecs(),
                        a.timeoutScaleCap(),
                        dir.resolve("workspace"),
                        false,
                        List.of()),
                providers,
                List.of(),
                d.history(),
                d.tools(),
                d.dispatch());
    }

    record Reply(int status, JsonNode body, String raw) {
        String content() {
            return body.path("choices").path(0).path("message").path("content").asText();
        }
    }

    static Reply chat(int port, String session, String text, String token) throws IOException, InterruptedException {
        String body = JSON.createObjectNode()
                .put("model", "clawgate")
                .put("stream", false)
                .set(
                        "messages",
                        JSON.createArrayNode()
                                .add(JSON.createObjectNode().put("role", "user").put("content", text)))
                .toString();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) b.header("X-Clawgate-Session", session);
        if (token != null) b.header("Authorization", "Bearer " + token);
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
        return new Reply(r.statusCode(), json, r.body());
    }

    /** A streamed chat: returns the content deltas in order and the finish reason as the last element. */
    static List<String> chatStream(int port, String session, String text) throws IOException, InterruptedException {
        String body = JSON.createObjectNode()
                .put("model", "clawgate")
                .put("stream", true)
                .set(
                        "messages",
                        JSON.createArrayNode()
                                .add(JSON.createObjectNode().put("role", "user").put("content", text)))
                .toString();
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("X-Clawgate-Session", session)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<java.util.stream.Stream<String>> r = HTTP.send(req, HttpResponse.BodyHandlers.ofLines());
        if (r.statusCode() != 200) throw new IOException("status " + r.statusCode());
        if (!r.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"))
            throw new IOException("not SSE");
        List<String> out = new ArrayList<>();
        String finish = null;
        boolean done = false;
        for (String line : (Iterable<String>) r.body()::iterator) {
            if (!line.startsWith("data: ")) continue;
            String data = line.substring(6);
            if (data.equals("[DONE]")) {
                done = true;
                break;
            }
            JsonNode chunk = JSON.readTree(data);
            JsonNode choice = chunk.path("choices").path(0);
            if (choice.path("delta").has("content"))
                out.add(choice.path("delta").path("content").asText());
            if (!choice.path("finish_reason").isNull())
                finish = choice.path("finish_reason").asText();
        }
        if (!done) throw new IOException("stream ended without [DONE]");
        out.add("finish:" + finish);
        return out;
    }

    static HttpResponse<String> get(int port, String path, String token) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
