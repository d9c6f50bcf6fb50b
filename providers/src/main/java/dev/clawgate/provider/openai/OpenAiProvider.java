package dev.clawgate.provider.openai;

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
 * Any OpenAI-compatible chat-completions API: OpenAI, OpenRouter, Ollama, vLLM, llama.cpp, LM Studio (SPEC SP-4).
 * Streams over SSE, sends tools natively, maps errors to {@link ProviderException.Kind}s (SPEC HI-5, HI-6) and aborts
 * the HTTP exchange when the run is cancelled (SPEC AG-2).
 */
public final class OpenAiProvider extends HttpProvider {
    /** Where requests go when the settings name no base URL. */
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    private final ChatRequestEncoder encoder = new ChatRequestEncoder(JSON);

    public OpenAiProvider(ProviderSettings settings) {
        this(settings, Clock.systemUTC());
    }

    OpenAiProvider(ProviderSettings settings, Clock clock) {
        super(
                settings,
                "openai",
                httpUrl(settings.baseUrl(), DEFAULT_BASE_URL),
                clock,
                ErrorClassifier::new,
                visionByDefault(settings));
    }

    /**
     * OpenAI's own API serves vision models, so images go to it unless {@code vision = false}; any other
     * OpenAI-compatible server (Ollama, llama.cpp, vLLM, a proxy) often runs a text-only model, so there images are
     * left out unless {@code vision = true} (SPEC AG-4, HI-3).
     */
    static boolean visionByDefault(ProviderSettings settings) {
        if (settings.baseUrl() == null || settings.baseUrl().isBlank()) return true;
        String host = URI.create(settings.baseUrl().strip()).getHost();
        return "api.openai.com".equalsIgnoreCase(host);
    }

    @Override
    protected String chatPath(String model, boolean stream) {
        return "/chat/completions";
    }

    @Override
    protected String modelsPath() {
        return "/models";
    }

    @Override
    protected void authenticate(HttpRequest.Builder request, String apiKey) {
        if (apiKey != null) request.header("authorization", "Bearer " + apiKey);
    }

    @Override
    protected JsonNode encode(ChatRequest request, String model) {
        return encoder.encode(request, model);
    }

    @Override
    protected ChatResponse decode(JsonNode root) throws ProviderException {
        if (root.path("error").isObject() || root.path("error").isTextual())
            throw errors().fromStreamError(root.path("error"));
        ChatResponse response = CompletionDecoder.decode(root);
        if (response == null) throw errors().malformed("the response has no choices");
        return response;
    }

    @Override
    protected StreamedAnswer streamedAnswer(StreamObserver observer) {
        StreamAssembler assembler = new StreamAssembler(observer);
        return new StreamedAnswer() {
            @Override
            public ChatResponse onEvent(String type, String data) throws ProviderException {
                if (data.equals("[DONE]")) return assembler.response();
                JsonNode chunk = parse(data, "stream chunk");
                if (chunk.path("error").isObject() || chunk.path("error").isTextual() || "error".equals(type)) {
                    throw errors().fromStreamError(chunk.has("error") ? chunk.path("error") : chunk);
                }
                assembler.accept(chunk);
                return null;
            }

            // a server that ends the body after the finish reason but without [DONE] is still complete
            @Override
            public ChatResponse onEnd() throws ProviderException {
                if (!assembler.finished()) throw errors().malformed("the stream ended before the answer was complete");
                return assembler.response();
            }
        };
    }
}
