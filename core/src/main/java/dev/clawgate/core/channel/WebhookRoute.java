package dev.clawgate.core.channel;

import java.util.Map;

/**
 * An HTTP route a channel needs (a platform webhook). The server mounts it, so no channel owns
 * an HTTP server (ARCHITECTURE: SPIs).
 */
public record WebhookRoute(String method, String path, Handler handler) {

    public record Request(Map<String, String> headers, byte[] body, String remoteAddress) {
        /** A header by case-insensitive name, or null. */
        public String header(String name) {
            for (var e : headers.entrySet()) if (e.getKey().equalsIgnoreCase(name)) return e.getValue();
            return null;
        }
    }

    public record Response(int status, String contentType, byte[] body) {
        public static Response text(int status, String body) {
            return new Response(status, "text/plain; charset=utf-8", body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @FunctionalInterface
    public interface Handler {
        Response handle(Request request);
    }
}
