package dev.clawgate.server;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The gateway's own HTTP routes, each as a request an allowed caller sends (SPEC OP-3, CH-2, CH-10): what the attack
 * tests replay with a foreign Origin, a rebound Host, a wrong body type or an oversized body. {@code /healthz} and
 * platform webhooks carry their own secret and are apart.
 */
final class GatewayRoutes {
    static final String CLIENT = "client-0123456789";
    static final String CHAT_BODY = "{\"model\":\"clawgate\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";
    static final String RESPONSES_BODY = "{\"model\":\"clawgate\",\"input\":\"hello\"}";

    /**
     * @param mounted whether this branch serves it (so an allowed call is answered 2xx or 101); a route that is not is
     *     still refused by the same checks, before any routing
     */
    record Route(String method, String target, byte[] body, List<String> headers, boolean mounted) {
        boolean posts() {
            return body != null;
        }

        @Override
        public String toString() {
            return method + " " + target;
        }
    }

    private GatewayRoutes() {}

    static List<Route> all() {
        return List.of(
                get("/readyz"),
                get("/metrics"),
                get("/v1/models"),
                get("/v1/models/clawgate"),
                post("/v1/chat/completions", CHAT_BODY),
                post("/v1/responses", RESPONSES_BODY),
                get("/chat"),
                get("/chat/chat.js"),
                get("/chat/chat.css"),
                get("/chat/history?client=" + CLIENT),
                new Route(
                        "GET",
                        "/chat/ws?client=" + CLIENT,
                        null,
                        List.of(
                                "Upgrade: websocket",
                                "Connection: Upgrade",
                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                                "Sec-WebSocket-Version: 13"),
                        true));
    }

    static List<Route> posting() {
        return all().stream().filter(Route::posts).toList();
    }

    private static Route get(String target) {
        return new Route("GET", target, null, List.of(), true);
    }

    private static Route post(String target, String body) {
        return new Route("POST", target, body.getBytes(StandardCharsets.UTF_8), List.of(), true);
    }
}
