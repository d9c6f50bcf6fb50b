package dev.clawgate.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The smallest bot that answers every message: it long-polls {@code getUpdates} with the JDK {@link HttpClient},
 * confirms each batch with the next offset, and echoes every text with {@code sendMessage}, each send on its own
 * virtual thread. It stores nothing and runs no model, so what the load driver measures against it is the ceiling of
 * driver, fake and HTTP together: the gateway's figures are read beside it.
 *
 * <p>{@code java -cp CP dev.clawgate.bench.load.EchoBot API_BASE BOT_TOKEN}
 */
public final class EchoBot {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int POLL_SECONDS = 25;

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    private final String base;

    private EchoBot(String apiBase, String token) {
        this.base = apiBase + "/bot" + token + "/";
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: EchoBot API_BASE BOT_TOKEN");
            System.exit(2);
        }
        new EchoBot(args[0], args[1]).run();
    }

    private void run() throws InterruptedException {
        long offset = 0;
        try (ExecutorService sends = Executors.newVirtualThreadPerTaskExecutor()) {
            while (!Thread.currentThread().isInterrupted()) {
                JsonNode updates;
                try {
                    updates = call(
                            "getUpdates",
                            JSON.createObjectNode().put("offset", offset).put("timeout", POLL_SECONDS),
                            Duration.ofSeconds(POLL_SECONDS + 15));
                } catch (IOException e) {
                    System.err.println("echo bot: getUpdates failed, retrying in 100 ms: " + e.getMessage());
                    Thread.sleep(100);
                    continue;
                }
                for (JsonNode u : updates) {
                    offset = Math.max(offset, u.path("update_id").asLong() + 1);
                    JsonNode m = u.path("message");
                    if (!m.path("text").isTextual()) continue;
                    ObjectNode reply = JSON.createObjectNode()
                            .put("chat_id", m.path("chat").path("id").asLong())
                            .put("text", m.path("text").asText());
                    sends.submit(() -> send(reply));
                }
            }
        }
    }

    private void send(ObjectNode reply) {
        try {
            call("sendMessage", reply, Duration.ofSeconds(30));
        } catch (IOException e) {
            System.err.println("echo bot: sendMessage failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private JsonNode call(String method, ObjectNode params, Duration timeout) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + method))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(params.toString(), StandardCharsets.UTF_8))
                .build();
        HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        JsonNode body = JSON.readTree(r.body());
        if (!body.path("ok").asBoolean(false))
            throw new IOException(method + " answered " + r.statusCode() + ": "
                    + body.path("description").asText());
        return body.path("result");
    }
}
