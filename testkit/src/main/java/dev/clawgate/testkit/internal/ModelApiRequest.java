package dev.clawgate.testkit.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the fake model servers' recorded requests share: headers and a JSON body with {@code messages}. */
public interface ModelApiRequest {
    /** How a fake server makes its own recorded-request type (a record's constructor). */
    @FunctionalInterface
    interface Factory<Q extends ModelApiRequest> {
        Q create(
                String method,
                String path,
                String query,
                Map<String, List<String>> headers,
                String bodyText,
                JsonNode body);
    }

    /** Lower-cased header names to values. */
    Map<String, List<String>> headers();

    /** The parsed JSON body, or a missing node. */
    JsonNode body();

    /** The first value of a header (case-insensitive), or null. */
    default String header(String name) {
        List<String> values = headers().get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    /** The request's {@code model}, or null. */
    default String model() {
        return body().path("model").isTextual() ? body().path("model").asText() : null;
    }

    /** Whether the request asked for a streamed answer. */
    default boolean stream() {
        return body().path("stream").asBoolean(false);
    }

    /** The {@code messages} array (empty if absent). */
    default JsonNode messages() {
        return body().path("messages");
    }

    /** The text of the last {@code user} message (text parts joined), or null. */
    default String lastUserText() {
        return lastUserText(body());
    }

    /** The text of the last {@code user} message of a request body: a string, or its text parts joined. */
    static String lastUserText(JsonNode body) {
        JsonNode messages = body.path("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode m = messages.get(i);
            if (!"user".equals(m.path("role").asText())) continue;
            JsonNode content = m.path("content");
            if (content.isTextual()) return content.asText();
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : content) {
                if ("text".equals(part.path("type").asText()))
                    sb.append(part.path("text").asText());
            }
            return sb.toString();
        }
        return null;
    }
}
