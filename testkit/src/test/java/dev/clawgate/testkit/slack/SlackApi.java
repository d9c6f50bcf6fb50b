package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/** A plain HTTP client of the fake's Web API, written from Slack's reference, not from the fake. */
final class SlackApi {
    static final ObjectMapper JSON = new ObjectMapper();
    final HttpClient http = HttpClient.newHttpClient();
    private final FakeSlack slack;

    SlackApi(FakeSlack slack) {
        this.slack = slack;
    }

    /** A JSON call with the bot token as a bearer token. */
    JsonNode bot(String method, String json) throws IOException, InterruptedException {
        return json(method, slack.botToken(), json);
    }

    JsonNode json(String method, String token, String json) throws IOException, InterruptedException {
        return JSON.readTree(
                send(method, token, "application/json; charset=utf-8", json).body());
    }

    /** A form call; {@code token} goes in the Authorization header when not null. */
    JsonNode form(String method, String token, Map<String, String> args) throws IOException, InterruptedException {
        return JSON.readTree(send(method, token, "application/x-www-form-urlencoded", encode(args))
                .body());
    }

    HttpResponse<String> send(String method, String token, String contentType, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(slack.apiBase() + "/" + method))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static Map<String, String> args(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    static String encode(Map<String, String> args) {
        StringJoiner j = new StringJoiner("&");
        args.forEach((k, v) -> j.add(
                URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return j.toString();
    }
}
