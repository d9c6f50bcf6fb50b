package dev.clawgate.provider.anthropic;

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

/**
 * The Anthropic Messages API (SPEC SP-4): {@code POST /v1/messages}, streamed over SSE, tools sent natively unless
 * {@code native_tools = false} (SPEC SP-3), errors mapped to {@link ProviderException.Kind}s (SPEC HI-5), and the HTTP
 * exchange aborted when the run is cancelled (SPEC AG-2).
 */
public final class AnthropicProvider extends HttpProvider {
    /** Where requests go when the settings name no base URL. */
    public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";
    /** The API version this client speaks, sent as {@code anthropic-version}. */
    public static final String API_VERSION = "2023-06-01";
    /** {@code max_tokens} when the settings name none (the API requires one). */
    public static final int DEFAULT_MAX_TOKENS = 4096;

    private final int maxTokens;
    private final MessagesEncoder encoder = new MessagesEncoder(JSON);

    public AnthropicProvider(ProviderSettings settings) {
        this(settings, Clock.systemUTC());
    }

    AnthropicProvider(ProviderSettings settings, Clock clock) {
        // every current Claude model takes images
        super(settings, "anthropic", apiRoot(settings.baseUrl()), clock, AnthropicErrors::new, true);
        this.maxTokens =
                settings.maxTokens() != null && settings.maxTokens() > 0 ? settings.maxTokens() : DEFAULT_MAX_TOKENS;
    }

    @Override
    protected String chatPath(String model, boolean stream) {
        return "/messages";
    }

    /** {@code GET /v1/models}: the first page, which holds every current model. */
    @Override
    protected String modelsPath() {
        return "/models?limit=1000";
    }

    @Override
    protected void authenticate(HttpRequest.Builder request, String apiKey) {
        request.header("anthropic-version", API_VERSION);
        if (apiKey != null) request.header("x-api-key", apiKey);
    }

    @Override
    protected JsonNode encode(ChatRequest request, String model) {
        return encoder.encode(request, model, maxTokens);
    }

    @Override
    protected ChatResponse decode(JsonNode root) throws ProviderException {
        if ("error".equals(root.path("type").asText())) throw errors().fromStreamError(root);
        ChatResponse response = MessageDecoder.decode(root);
        if (response == null) throw errors().malformed("the response is not a message");
        return response;
    }

    @Override
    protected StreamedAnswer streamedAnswer(StreamObserver observer) {
        MessageStreamAssembler assembler = new MessageStreamAssembler(observer);
        return new StreamedAnswer() {
            @Override
            public ChatResponse onEvent(String type, String data) throws ProviderException {
                JsonNode event = parse(data, "stream event");
                if ("error".equals(type) || "error".equals(event.path("type").asText())) {
                    throw errors().fromStreamError(event);
                }
                assembler.accept(event);
                return assembler.finished() ? assembler.response() : null;
            }

            @Override
            public ChatResponse onEnd() throws ProviderException {
                throw errors().malformed("the stream ended before message_stop");
            }
        };
    }

    /**
     * The {@code .../v1} root: {@code https://api.anthropic.com} and {@code https://api.anthropic.com/v1} both work.
     */
    static URI apiRoot(String configured) {
        String url = configured == null || configured.isBlank() ? DEFAULT_BASE_URL : configured.strip();
        while (url.endsWith("/")) url = url.substring(0, url.length() - 1);
        return httpUrl(url.endsWith("/v1") ? url : url + "/v1", DEFAULT_BASE_URL);
    }
}
