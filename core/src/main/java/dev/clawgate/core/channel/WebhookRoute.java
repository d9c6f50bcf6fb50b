package dev.clawgate.core.channel;

import java.util.Map;

/**
 * An HTTP route a channel needs (a platform webhook). The server mounts it, so no channel owns an HTTP server
 * (ARCHITECTURE: SPIs).
 *
 * @param oversized the answer to a request whose body is over {@code gateway.max_body_bytes} (SPEC OP-10); a platform
 *     that repeats every non-2xx answer can be given one it will not repeat
 */
public record WebhookRoute(String method, String path, Handler handler, Oversized oversized) {
    public WebhookRoute {
        oversized = oversized == null ? Oversized.TOO_LARGE : oversized;
    }

    /** A route whose oversized requests get a plain 413. */
    public WebhookRoute(String method, String path, Handler handler) {
        this(method, path, handler, Oversized.TOO_LARGE);
    }

    /**
     * One request as it came: headers, the raw body (read before anything is parsed, for signatures), the caller's
     * address, and the URL's query parameters (the first value of each; a platform's subscription check is a GET with
     * its challenge in the query).
     */
    public record Request(Map<String, String> headers, byte[] body, String remoteAddress, Map<String, String> query) {
        public Request {
            query = query == null ? Map.of() : Map.copyOf(query);
        }

        /** A request without query parameters (a platform's POST). */
        public Request(Map<String, String> headers, byte[] body, String remoteAddress) {
            this(headers, body, remoteAddress, Map.of());
        }

        /** A query parameter, or null. */
        public String queryParam(String name) {
            return query.get(name);
        }

        /** A header by case-insensitive name, or null. */
        public String header(String name) {
            for (var e : headers.entrySet()) if (e.getKey().equalsIgnoreCase(name)) return e.getValue();
            return null;
        }
    }

    public record Response(int status, String contentType, byte[] body) {
        public static Response text(int status, String body) {
            return new Response(
                    status, "text/plain; charset=utf-8", body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @FunctionalInterface
    public interface Handler {
        Response handle(Request request);
    }

    /**
     * Answers a request whose body was not read because it is over the limit: its headers are there, its body empty.
     */
    @FunctionalInterface
    public interface Oversized {
        Response answer(Request headersOnly, long limitBytes);

        Oversized TOO_LARGE = (request, limit) -> Response.text(
                413,
                "the request body is over the gateway's limit of " + limit
                        + " bytes (gateway.max_body_bytes); it will not be accepted however often it is sent");
    }
}
