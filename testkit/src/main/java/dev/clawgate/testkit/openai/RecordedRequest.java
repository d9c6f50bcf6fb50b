package dev.clawgate.testkit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.clawgate.testkit.internal.ModelApiRequest;
import java.util.List;
import java.util.Map;

/**
 * One request the {@link FakeOpenAiServer} received, recorded before it was answered; {@link #header}, {@link #model},
 * {@link #stream}, {@link #messages} and {@link #lastUserText} (text parts joined) read it.
 *
 * @param headers lower-cased names to values
 * @param bodyText the raw body
 * @param body the parsed JSON body, or a {@link MissingNode} when the body was empty or not JSON
 */
public record RecordedRequest(
        String method, String path, String query, Map<String, List<String>> headers, String bodyText, JsonNode body)
        implements ModelApiRequest {
    public RecordedRequest {
        headers = Map.copyOf(headers);
        body = body == null ? MissingNode.getInstance() : body;
    }

    public boolean isChatCompletion() {
        return "POST".equals(method) && FakeOpenAiServer.CHAT_PATH.equals(path);
    }
}
