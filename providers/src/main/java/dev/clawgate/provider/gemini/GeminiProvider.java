package dev.clawgate.provider.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.provider.internal.HttpProvider;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The Gemini API (SPEC SP-4): {@code POST models/{model}:generateContent}, and {@code :streamGenerateContent?alt=sse}
 * for streamed answers; function calling, the system instruction and inline images; safety blocks and finish reasons
 * turned into clear errors; {@code RESOURCE_EXHAUSTED} with its {@code RetryInfo} delay (SPEC HI-5, AG-2 as the other
 * providers). The key travels in the {@code x-goog-api-key} header, never in the URL.
 */
public final class GeminiProvider extends HttpProvider {
    /** Where requests go when the settings name no {@code api_base}. */
    public static final String DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";
    // model names as the API spells them, after an optional "models/" prefix: no path tricks, no query
    private static final Pattern MODEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private final Integer maxTokens;
    private final ThoughtSignatures signatures = new ThoughtSignatures();
    private final GeminiEncoder encoder = new GeminiEncoder(JSON, signatures);

    public GeminiProvider(ProviderSettings settings) {
        this(settings, Clock.systemUTC());
    }

    GeminiProvider(ProviderSettings settings, Clock clock) {
        // every current Gemini model takes images
        super(settings, "gemini", apiRoot(settings.baseUrl()), clock, GeminiErrors::new, true);
        this.maxTokens = settings.maxTokens() != null && settings.maxTokens() > 0 ? settings.maxTokens() : null;
    }

    @Override
    protected String chatPath(String model, boolean stream) {
        String m = bareModel(model);
        return stream ? "/models/" + m + ":streamGenerateContent?alt=sse" : "/models/" + m + ":generateContent";
    }

    @Override
    protected String modelsPath() {
        return "/models?pageSize=1000";
    }

    @Override
    protected List<String> modelIds(JsonNode root) {
        List<String> ids = new ArrayList<>();
        for (JsonNode m : root.path("models")) {
            String name = m.path("name").asText("");
            if (name.isEmpty()) continue;
            boolean generates = !m.has("supportedGenerationMethods");
            for (JsonNode method : m.path("supportedGenerationMethods")) {
                if ("generateContent".equals(method.asText())) generates = true;
            }
            if (generates) ids.add(name.startsWith("models/") ? name.substring("models/".length()) : name);
        }
        return List.copyOf(ids);
    }

    @Override
    protected void authenticate(HttpRequest.Builder request, String apiKey) {
        if (apiKey != null) request.header("x-goog-api-key", apiKey);
    }

    @Override
    protected JsonNode encode(ChatRequest request, String model) {
        bareModel(model);
        return encoder.encode(request, maxTokens);
    }

    @Override
    protected ChatResponse decode(JsonNode root) throws ProviderException {
        if (root.has("error")) throw errors().fromStreamError(root);
        GeminiAnswer answer = new GeminiAnswer(StreamObserver.NONE, signatures);
        answer.accept(root);
        return answer.finish(errors());
    }

    @Override
    protected StreamedAnswer streamedAnswer(StreamObserver observer) {
        GeminiAnswer answer = new GeminiAnswer(observer, signatures);
        return new StreamedAnswer() {
            @Override
            public ChatResponse onEvent(String type, String data) throws ProviderException {
                JsonNode chunk = parse(data, "stream chunk");
                if (chunk.has("error")) throw errors().fromStreamError(chunk);
                answer.accept(chunk);
                // a blocked prompt or a safety stop ends the answer at once, with its error
                if (answer.blocked()) return answer.finish(errors());
                return null;
            }

            @Override
            public ChatResponse onEnd() throws ProviderException {
                // the API ends a stream by closing it; the last chunk carries the finish reason
                return answer.finish(errors());
            }
        };
    }

    /** The model id without the {@code models/} prefix; IllegalArgumentException when it is not a plain name. */
    static String bareModel(String model) {
        String m = model.startsWith("models/") ? model.substring("models/".length()) : model;
        if (!MODEL.matcher(m).matches())
            throw new IllegalArgumentException("the model name '" + m + "' is not a Gemini model id");
        return m;
    }

    /** The versioned root ({@code .../v1beta}); a configured base without a version gets {@code /v1beta}. */
    static URI apiRoot(String configured) {
        String url = configured == null || configured.isBlank() ? DEFAULT_BASE_URL : configured.strip();
        while (url.endsWith("/")) url = url.substring(0, url.length() - 1);
        boolean versioned = url.matches(".*/v\\d+(alpha|beta)?\\d*$");
        return httpUrl(versioned ? url : url + "/v1beta", DEFAULT_BASE_URL);
    }
}
