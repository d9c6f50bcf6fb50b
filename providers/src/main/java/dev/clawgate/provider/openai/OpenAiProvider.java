package dev.clawgate.provider.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.core.provider.ChatRequest;
import dev.clawgate.core.provider.ChatResponse;
import dev.clawgate.core.provider.Provider;
import dev.clawgate.core.provider.ProviderCapabilities;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.provider.StreamObserver;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Any OpenAI-compatible chat-completions API: OpenAI, OpenRouter, Ollama, vLLM, llama.cpp,
 * LM Studio (SPEC SP-4). Streams over SSE, sends tools natively, maps errors to
 * {@link ProviderException.Kind}s (SPEC HI-5, HI-6) and aborts the HTTP exchange when the run is
 * cancelled (SPEC AG-2).
 */
public final class OpenAiProvider implements Provider, AutoCloseable {
    /** Where requests go when the settings name no base URL. */
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
    static final int DEFAULT_TIMEOUT_SECS = 120;
    private static final Logger LOG = LoggerFactory.getLogger(OpenAiProvider.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_ERROR_BODY = 64 * 1024;
    private static final int MAX_BODY = 64 * 1024 * 1024;

    private final String name;
    private final URI baseUri;
    private final String apiKey;
    private final String defaultModel;
    private final Duration timeout;
    private final ProviderCapabilities capabilities;
    private final HttpClient http;
    private final ChatRequestEncoder encoder = new ChatRequestEncoder(JSON);
    private final ErrorClassifier errors;

    public OpenAiProvider(ProviderSettings settings) {
        this(settings, Clock.systemUTC());
    }

    OpenAiProvider(ProviderSettings settings, Clock clock) {
        Objects.requireNonNull(settings, "settings");
        this.name = settings.name() == null || settings.name().isBlank() ? "openai" : settings.name();
        this.baseUri = baseUri(settings.baseUrl());
        this.apiKey = settings.apiKey() == null || settings.apiKey().isBlank() ? null : settings.apiKey();
        this.defaultModel = settings.defaultModel();
        this.timeout = Duration.ofSeconds(settings.timeoutSecs() > 0 ? settings.timeoutSecs() : DEFAULT_TIMEOUT_SECS);
        this.capabilities = new ProviderCapabilities(!Boolean.FALSE.equals(settings.nativeTools()), true, true);
        this.errors = new ErrorClassifier(name, new SecretRedactor(apiKey), clock);
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout.compareTo(Duration.ofSeconds(30)) < 0 ? timeout : Duration.ofSeconds(30))
                .build();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ProviderCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public ChatResponse chat(ChatRequest request, StreamObserver observer, CancelToken cancel) throws ProviderException {
        Objects.requireNonNull(request, "request");
        StreamObserver sink = observer == null ? StreamObserver.NONE : observer;
        CancelToken token = cancel == null ? CancelToken.none() : cancel;
        token.throwIfCancelled();
        String model = request.model().isBlank() ? defaultModel : request.model();
        if (model == null || model.isBlank()) throw errors.fatal("no model named in the request or the settings");
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(encoder.encode(request, model));
        } catch (IllegalArgumentException | JsonProcessingException e) {
            throw errors.fatal("cannot encode the request: " + e.getMessage());
        }
        HttpRequest httpRequest = request("/chat/completions")
                .header("Content-Type", "application/json")
                .header("Accept", request.stream() ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        long started = System.nanoTime();
        try (Exchange exchange = Exchange.start(http, httpRequest, token, timeout, errors)) {
            HttpResponse<InputStream> response = exchange.awaitResponse();
            if (response.statusCode() / 100 != 2) throw failure(exchange, response);
            ChatResponse result = request.stream() && isEventStream(response)
                    ? readStream(exchange, sink)
                    : readCompletion(exchange, sink, request.stream());
            token.throwIfCancelled();
            LOG.debug("{} answered model {} in {} ms", name, model, (System.nanoTime() - started) / 1_000_000);
            return result;
        }
    }

    @Override
    public List<String> listModels(CancelToken cancel) throws ProviderException {
        CancelToken token = cancel == null ? CancelToken.none() : cancel;
        HttpRequest httpRequest = request("/models").header("Accept", "application/json").GET().build();
        try (Exchange exchange = Exchange.start(http, httpRequest, token, timeout, errors)) {
            HttpResponse<InputStream> response = exchange.awaitResponse();
            if (response.statusCode() / 100 != 2) throw failure(exchange, response);
            JsonNode root = parse(exchange.readAll(MAX_BODY), "model list");
            List<String> ids = new ArrayList<>();
            for (JsonNode m : root.path("data")) {
                if (m.path("id").isTextual()) ids.add(m.path("id").asText());
            }
            return List.copyOf(ids);
        }
    }

    /** Aborts any exchange still in flight and releases the HTTP client's connections and threads. */
    @Override
    public void close() {
        http.shutdownNow();
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUri + path))
                .timeout(timeout)
                .header("User-Agent", "clawgate");
        if (apiKey != null) b.header("Authorization", "Bearer " + apiKey);
        return b;
    }

    private ChatResponse readStream(Exchange exchange, StreamObserver observer) throws ProviderException {
        StreamAssembler assembler = new StreamAssembler(observer);
        ServerSentEvents events = new ServerSentEvents(exchange.body());
        try {
            for (ServerSentEvents.Event e; (e = events.next()) != null; ) {
                String data = e.data().strip();
                if (data.equals("[DONE]")) return assembler.response();
                if (data.isEmpty()) continue;
                JsonNode chunk = parse(data.getBytes(StandardCharsets.UTF_8), "stream chunk");
                if (chunk.path("error").isObject() || chunk.path("error").isTextual() || "error".equals(e.type())) {
                    throw errors.fromStreamError(chunk.has("error") ? chunk.path("error") : chunk);
                }
                assembler.accept(chunk);
            }
        } catch (IOException e) {
            throw exchange.readFailure(e);
        }
        exchange.throwIfAborted();
        // a server that ends the body after the finish reason but without [DONE] is still complete
        if (!assembler.finished()) throw errors.malformed("the stream ended before the answer was complete");
        return assembler.response();
    }

    private ChatResponse readCompletion(Exchange exchange, StreamObserver observer, boolean streamWanted)
            throws ProviderException {
        JsonNode root = parse(exchange.readAll(MAX_BODY), "response");
        if (root.path("error").isObject() || root.path("error").isTextual()) throw errors.fromStreamError(root.path("error"));
        ChatResponse response = CompletionDecoder.decode(root);
        if (response == null) throw errors.malformed("the response has no choices");
        // a server that ignored stream=true still owes the observer the text
        if (streamWanted) {
            if (response.reasoning() != null && !response.reasoning().isEmpty()) observer.onReasoningDelta(response.reasoning());
            if (!response.text().isEmpty()) observer.onTextDelta(response.text());
        }
        return response;
    }

    private ProviderException failure(Exchange exchange, HttpResponse<InputStream> response) throws ProviderException {
        String body = new String(exchange.readAll(MAX_ERROR_BODY), StandardCharsets.UTF_8);
        ProviderException e = errors.fromHttp(response.statusCode(), response.headers(), body);
        LOG.debug("{} failed: {} ({})", name, e.getMessage(), e.kind());
        return e;
    }

    private JsonNode parse(byte[] bytes, String what) throws ProviderException {
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            throw errors.malformed("the " + what + " is not valid JSON");
        }
    }

    private static boolean isEventStream(HttpResponse<?> response) {
        return response.headers().firstValue("content-type").orElse("")
                .toLowerCase(Locale.ROOT).startsWith("text/event-stream");
    }

    private static URI baseUri(String configured) {
        String url = configured == null || configured.isBlank() ? DEFAULT_BASE_URL : configured.strip();
        while (url.endsWith("/")) url = url.substring(0, url.length() - 1);
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("provider base_url is not a valid URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException("provider base_url must be an http(s) URL with a host");
        }
        return uri;
    }
}
