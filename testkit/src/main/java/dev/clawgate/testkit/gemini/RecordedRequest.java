package dev.clawgate.testkit.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.clawgate.testkit.internal.ModelApiRequest;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One request the {@link FakeGeminiServer} received, recorded before it was answered. The model and the method come
 * from the path ({@code /v1beta/models/{model}:{method}}); {@link #messages} is the {@code contents} array.
 *
 * @param headers lower-cased names to values
 * @param query the raw query string, or null
 */
public record RecordedRequest(
        String method, String path, String query, Map<String, List<String>> headers, String bodyText, JsonNode body)
        implements ModelApiRequest {
    static final Pattern MODEL_METHOD = Pattern.compile("/v1beta/models/([^/:]+):([A-Za-z]+)");

    public RecordedRequest {
        headers = Map.copyOf(headers);
        body = body == null ? MissingNode.getInstance() : body;
    }

    /** A {@code generateContent} or {@code streamGenerateContent} call. */
    public boolean isGenerate() {
        String m = generationMethod();
        return "POST".equals(method) && ("generateContent".equals(m) || "streamGenerateContent".equals(m));
    }

    /** {@code generateContent}, {@code streamGenerateContent}, ... or null for another path. */
    public String generationMethod() {
        Matcher m = MODEL_METHOD.matcher(path);
        return m.matches() ? m.group(2) : null;
    }

    /** The model named in the path, or null. */
    @Override
    public String model() {
        Matcher m = MODEL_METHOD.matcher(path);
        return m.matches() ? m.group(1) : null;
    }

    /** Whether this was a {@code streamGenerateContent} call. */
    @Override
    public boolean stream() {
        return "streamGenerateContent".equals(generationMethod());
    }

    /** Whether the query asked for server-sent events ({@code alt=sse}). */
    public boolean sse() {
        return query != null && List.of(query.split("&")).contains("alt=sse");
    }

    /** The {@code contents} array (empty if absent). */
    @Override
    public JsonNode messages() {
        return body.path("contents");
    }

    /** The text of the last {@code user} content's text parts, joined; or null. */
    @Override
    public String lastUserText() {
        return lastUserText(body);
    }

    /** The {@code systemInstruction} text parts joined, or null when there is none. */
    public String systemInstruction() {
        JsonNode parts = body.path("systemInstruction").path("parts");
        if (!parts.isArray()) return null;
        StringBuilder sb = new StringBuilder();
        for (JsonNode p : parts) sb.append(p.path("text").asText(""));
        return sb.toString();
    }

    /** The declared functions ({@code tools[].functionDeclarations[]}), flattened. */
    public List<JsonNode> functionDeclarations() {
        java.util.ArrayList<JsonNode> out = new java.util.ArrayList<>();
        for (JsonNode tool : body.path("tools")) for (JsonNode d : tool.path("functionDeclarations")) out.add(d);
        return out;
    }

    static String lastUserText(JsonNode body) {
        JsonNode contents = body.path("contents");
        for (int i = contents.size() - 1; i >= 0; i--) {
            JsonNode c = contents.get(i);
            if (!"user".equals(c.path("role").asText("user"))) continue;
            StringBuilder sb = new StringBuilder();
            for (JsonNode p : c.path("parts"))
                if (p.path("text").isTextual()) sb.append(p.path("text").asText());
            if (!sb.isEmpty()) return sb.toString();
        }
        return null;
    }
}
