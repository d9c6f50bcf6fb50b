package dev.clawgate.testkit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One request the {@link FakeOpenAiServer} received, recorded before it was answered.
 *
 * @param headers  lower-cased names to values
 * @param bodyText the raw body
 * @param body     the parsed JSON body, or a {@link MissingNode} when the body was empty or not JSON
 */
public record RecordedRequest(String method, String path, String query, Map<String, List<String>> headers,
                              String bodyText, JsonNode body) {
    public RecordedRequest {
        headers = Map.copyOf(headers);
        body = body == null ? MissingNode.getInstance() : body;
    }

    /** The first value of a header (case-insensitive), or null. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    public boolean isChatCompletion() {
        return "POST".equals(method) && FakeOpenAiServer.CHAT_PATH.equals(path);
    }

    /** The request's {@code model}, or null. */
    public String model() {
        return body.path("model").isTextual() ? body.path("model").asText() : null;
    }

    /** Whether the request asked for a streamed answer. */
    public boolean stream() {
        return body.path("stream").asBoolean(false);
    }

    /** The {@code messages} array (empty if absent). */
    public JsonNode messages() {
        return body.path("messages");
    }

    /** The text of the last {@code user} message (text parts joined), or null. */
    public String lastUserText() {
        return FakeOpenAiServer.lastUserText(body);
    }
}
