package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One authenticated request as an endpoint sees it: the route's name, the decoded path segments, the query, the raw
 * body and the login whose token it carried (null on unauthenticated routes).
 */
record Exchange(
        String name,
        String method,
        List<String> segments,
        Map<String, String> query,
        byte[] body,
        Map<String, String> headers,
        Login login) {

    String segment(int i) {
        return segments.get(i);
    }

    String query(String key) {
        return query.get(key);
    }

    /** The body as a JSON object; "All POST and PUT endpoints ... require ... a (potentially empty) JSON object". */
    JsonNode json() throws MatrixError {
        if (body.length == 0) throw MatrixError.notJson();
        try {
            JsonNode n = Homeserver.JSON.readTree(body);
            if (n == null || !n.isObject()) throw MatrixError.notJson();
            return n;
        } catch (IOException e) {
            throw MatrixError.notJson();
        }
    }

    String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    /** What an endpoint answers: JSON, or raw bytes (media downloads). */
    record Answer(int status, byte[] body, String contentType, Map<String, String> headers) {
        static Answer json(JsonNode n) {
            return new Answer(200, n.toString().getBytes(StandardCharsets.UTF_8), "application/json", Map.of());
        }

        static Answer error(MatrixError e) {
            Map<String, String> h = e.retryAfterMs == null
                    ? Map.of()
                    // Matrix 1.10 (MSC4041): the Retry-After header, in whole seconds, besides retry_after_ms
                    : Map.of("Retry-After", Long.toString((e.retryAfterMs + 999) / 1000));
            return new Answer(e.status, e.body().toString().getBytes(StandardCharsets.UTF_8), "application/json", h);
        }
    }

    /** An endpoint. */
    @FunctionalInterface
    interface Endpoint {
        Answer handle(Exchange x) throws MatrixError, InterruptedException;
    }
}
