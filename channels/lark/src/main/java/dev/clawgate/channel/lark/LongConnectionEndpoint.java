package dev.clawgate.channel.lark;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Where the long connection goes (SPEC CH-11): {@code POST <api_base>/callback/ws/endpoint} with {@code {"AppID",
 * "AppSecret"}} answers {@code data.URL} (a single-use {@code wss://} URL whose query names {@code service_id} and
 * {@code device_id}) and {@code data.ClientConfig}: {@code PingInterval}, {@code ReconnectCount},
 * {@code ReconnectInterval}, {@code ReconnectNonce}, in seconds. Codes 1 (system busy) and 1000040343 (internal error)
 * are worth another try; others (403, 514 auth failed, 1000040350 too many connections) need the operator. The URL
 * carries an access key: it never reaches a log.
 */
record LongConnectionEndpoint(URI url, int service, ClientConfig config) {
    static final String PATH = "/callback/ws/endpoint";
    static final int SYSTEM_BUSY = 1;
    static final int INTERNAL_ERROR = 1000040343;

    /** The platform's pacing of the connection; the defaults are the official SDKs'. */
    record ClientConfig(Duration pingInterval, int reconnectCount, Duration reconnectInterval, Duration nonce) {
        static final ClientConfig DEFAULT =
                new ClientConfig(Duration.ofSeconds(120), -1, Duration.ofSeconds(120), Duration.ofSeconds(30));

        /** {@code node} read over this: a field missing or not positive keeps this value. */
        ClientConfig with(JsonNode node) {
            return new ClientConfig(
                    seconds(node, "PingInterval", pingInterval),
                    node.path("ReconnectCount").isInt()
                            ? node.path("ReconnectCount").asInt()
                            : reconnectCount,
                    seconds(node, "ReconnectInterval", reconnectInterval),
                    node.path("ReconnectNonce").isInt()
                                    && node.path("ReconnectNonce").asInt() >= 0
                            ? Duration.ofSeconds(node.path("ReconnectNonce").asInt())
                            : nonce);
        }

        private static Duration seconds(JsonNode node, String key, Duration fallback) {
            int s = node.path(key).asInt(0);
            return s > 0 ? Duration.ofSeconds(s) : fallback;
        }
    }

    /** The endpoint refused: {@code retry} tells a busy platform from a refusal that needs the operator. */
    static final class Refused extends Exception {
        final boolean retry;

        Refused(String message, boolean retry) {
            super(message);
            this.retry = retry;
        }
    }

    static LongConnectionEndpoint fetch(LarkAccount account, HttpClient http)
            throws IOException, InterruptedException, Refused {
        String body = LarkApi.JSON
                .createObjectNode()
                .put("AppID", account.appId())
                .put("AppSecret", account.appSecret())
                .toString();
        HttpRequest r = HttpRequest.newBuilder(URI.create(account.apiBase() + PATH))
                .timeout(account.callTimeout())
                .header("Content-Type", "application/json; charset=utf-8")
                .header("locale", "zh")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> answer = http.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        JsonNode root;
        try {
            root = LarkApi.JSON.readTree(answer.body());
        } catch (IOException notJson) {
            root = null;
        }
        if (answer.statusCode() / 100 != 2 || root == null || !root.isObject()) {
            throw new Refused(
                    "the endpoint answered HTTP " + answer.statusCode(),
                    answer.statusCode() >= 500 || answer.statusCode() == 429);
        }
        int code = root.path("code").asInt(-1);
        if (code != 0) {
            throw new Refused(
                    "the endpoint answered code " + code + " "
                            + root.path("msg").asText(""),
                    code == SYSTEM_BUSY || code == INTERNAL_ERROR);
        }
        JsonNode data = root.path("data");
        String url = data.path("URL").asText("");
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new Refused("the endpoint answered a URL that is not one", true);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme();
        if (!scheme.equals("wss") && !scheme.equals("ws")) {
            throw new Refused("the endpoint answered no WebSocket URL", true);
        }
        return new LongConnectionEndpoint(
                uri, query(uri, "service_id"), ClientConfig.DEFAULT.with(data.path("ClientConfig")));
    }

    private static int query(URI uri, String key) {
        String q = uri.getRawQuery();
        if (q == null) return 0;
        for (String kv : q.split("&")) {
            if (kv.startsWith(key + "=")) {
                try {
                    return Integer.parseInt(kv.substring(key.length() + 1));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }
}
