package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/** A bare Client-Server API client over java.net.http: what the fake is checked with, independent of any adapter. */
final class PlainClient {
    static final ObjectMapper JSON = new ObjectMapper();

    record Response(int status, JsonNode json, byte[] bytes, HttpResponse<byte[]> raw) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;
    private final String token;

    PlainClient(String base, String token) {
        this.base = base;
        this.token = token;
    }

    PlainClient withToken(String other) {
        return new PlainClient(base, other);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    Response get(String path) throws IOException, InterruptedException {
        return send(request(path).GET());
    }

    Response put(String path, String json) throws IOException, InterruptedException {
        return send(request(path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    Response post(String path, String json) throws IOException, InterruptedException {
        return send(request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Response upload(String fileName, String type, byte[] bytes) throws IOException, InterruptedException {
        return send(request("/_matrix/media/v3/upload?filename=" + enc(fileName))
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)));
    }

    CompletableFuture<Response> getAsync(String path) {
        return http.sendAsync(request(path).GET().build(), HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(PlainClient::wrap);
    }

    /** {@code PUT /rooms/{roomId}/send/m.room.message/{txnId}} with {@code content}; the event id. */
    String sendMessage(String roomId, String txnId, String content) throws IOException, InterruptedException {
        Response r = put("/_matrix/client/v3/rooms/" + enc(roomId) + "/send/m.room.message/" + enc(txnId), content);
        if (r.status() != 200) throw new AssertionError("send failed: " + r.status() + " " + r.json());
        return r.json().path("event_id").asText();
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return b;
    }

    private Response send(HttpRequest.Builder b) throws IOException, InterruptedException {
        return wrap(http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray()));
    }

    private static Response wrap(HttpResponse<byte[]> r) {
        JsonNode json = null;
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (type.startsWith("application/json") && r.body().length > 0) {
            try {
                json = JSON.readTree(r.body());
            } catch (IOException e) {
                throw new AssertionError("the fake answered JSON that does not parse", e);
            }
        }
        return new Response(r.statusCode(), json, r.body(), r);
    }
}
