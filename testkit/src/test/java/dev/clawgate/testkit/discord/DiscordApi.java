package dev.clawgate.testkit.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.testkit.WsProbe;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain client of the fake's HTTP API and Gateway, written from Discord's reference, not from the fake. */
final class DiscordApi {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration WAIT = Duration.ofSeconds(20); // an upper bound only: a loaded CI machine is slow
    final HttpClient http = HttpClient.newHttpClient();
    private final FakeDiscord discord;

    DiscordApi(FakeDiscord discord) {
        this.discord = discord;
    }

    HttpResponse<String> call(String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest.BodyPublisher body =
                json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(discord.apiBase() + path))
                .header("Authorization", "Bot " + discord.botToken())
                .header("User-Agent", "DiscordBot (https://example.test, 1.0)")
                .method(method, body);
        if (json != null) b.header("Content-Type", "application/json");
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode json(String method, String path, String json) throws IOException, InterruptedException {
        return JSON.readTree(call(method, path, json).body());
    }

    /** Opens a Gateway connection the way the reference shows: {@code ?v=10&encoding=json}; the Hello is read. */
    WsProbe connect(String base) throws Exception {
        WsProbe ws = WsProbe.connect(base + "/?v=10&encoding=json");
        JsonNode hello = ws.nextJson(WAIT);
        if (hello.path("op").asInt() != 10) throw new AssertionError("expected Hello, got " + hello);
        return ws;
    }

    static String identify(String token, int intents) {
        return "{\"op\":2,\"d\":{\"token\":\"" + token + "\",\"intents\":" + intents
                + ",\"properties\":{\"os\":\"linux\",\"browser\":\"probe\",\"device\":\"probe\"}}}";
    }

    static String resume(String token, String sessionId, long seq) {
        return "{\"op\":6,\"d\":{\"token\":\"" + token + "\",\"session_id\":\"" + sessionId + "\",\"seq\":" + seq
                + "}}";
    }

    /** The next dispatch (op 0), skipping Heartbeat ACKs. */
    static JsonNode nextDispatch(WsProbe ws) throws Exception {
        while (true) {
            JsonNode n = ws.nextJson(WAIT);
            if (n.path("op").asInt() != 11) return n;
        }
    }
}
