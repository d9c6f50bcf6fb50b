package dev.clawgate.provider.internal;

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
import dev.clawgate.core.run.HttpClients;
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
 * A model API over HTTP, as a template: this class does the exchange, its cancellation and timeout (SPEC AG-2), the
 * error mapping (SPEC HI-5) and the streaming loop; a provider adds only its wire format: where to post, how to
 * authenticate, how to encode a request and read an answer.
 */
public abstract class HttpProvider implements Provider, AutoCloseable {
    protected static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_ERROR_BODY = 64 * 1024;
    private static final int MAX_BODY = 64 * 1024 * 1024;
    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(30);
    static final int DEFAULT_TIMEOUT_SECS = 120;

    /** How a provider makes its error wording, given its name, redactor and clock. */
    @FunctionalInterface
    protected interface ErrorsFactory {
        ProviderErrors create(String provider, SecretRedactor redactor, Clock clock);
    }

    /** One streamed answer being read: fed each non-empty event in turn. */
    protected interface StreamedAnswer {
        /** The answer, once this event completes it; else null. */
        ChatResponse onEvent(String type, String data) throws ProviderException;

        /** The answer when the body ended with no event that completed it (or the failure). */
        ChatResponse onEnd() throws ProviderException;
    }

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final String name;
    private final URI apiRoot;
    private final String apiKey;
    private final String defaultModel;
    private final Duration timeout;
    private final ProviderCapabilities capabilities;
    private final HttpClient http;
    private final ProviderErrors errors;

    /**
     * @param defaultName the provider's name when the settings give none
     * @param apiRoot what request paths are appended to
     * @param visionByDefault whether the model takes images when {@code settings.vision()} does not say
     */
    protected HttpProvider(
            ProviderSettings settings,
            String defaultName,
            URI apiRoot,
            Clock clock,
            ErrorsFactory errors,
            boolean visionByDefault) {
        Objects.requireNonNull(settings, "settings");
        this.name = settings.name() == null || settings.name().isBlank() ? defaultName : settings.name();
        this.apiRoot = apiRoot;
        this.apiKey = settings.apiKey() == null || settings.apiKey().isBlank() ? null : settings.apiKey();
        this.defaultModel = settings.defaultModel();
        this.timeout = Duration.ofSeconds(settings.timeoutSecs() > 0 ? settings.timeoutSecs() : DEFAULT_TIMEOUT_SECS);
        boolean vision = settings.vision() == null ? visionByDefault : settings.vision();
        this.capabilities = new ProviderCapabilities(!Boolean.FALSE.equals(settings.nativeTools()), vision, true);
        this.errors = errors.create(name, new SecretRedactor(apiKey), clock);
        this.http = HttpClients.builder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout.compareTo(MAX_CONNECT_TIMEOUT) < 0 ? timeout : MAX_CONNECT_TIMEOUT)
                .build();
    }

    /** The path (and query), below the API root, that a chat request for {@code model} is posted to. */
    protected abstract String chatPath(String model, boolean stream);

    /** The path, below the API root, of the model list (a {@code data} array of {@code id}s). */
    protected abstract String modelsPath();

    /** Adds what every request of this API carries: the key (when set) and any version header. */
    protected abstract void authenticate(HttpRequest.Builder request, String apiKey);

    /** The request body for a chat request to {@code model}; may throw IllegalArgumentException. */
    protected abstract JsonNode encode(ChatRequest request, String model);

    /** A whole (non-streamed) answer, already parsed. */
    protected abstract ChatResponse decode(JsonNode root) throws ProviderException;

    /** A reader for one streamed answer that reports deltas to {@code observer}. */
    protected abstract StreamedAnswer streamedAnswer(StreamObserver observer);

    @Override
    public String name() {
        return name;
    }

    @Override
    public ProviderCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public final ChatResponse chat(ChatRequest request, StreamObserver observer, CancelToken cancel)
            throws ProviderException {
        Objects.requireNonNull(request, "request");
        StreamObserver sink = observer == null ? StreamObserver.NONE : observer;
        CancelToken token = cancel == null ? CancelToken.none() : cancel;
        token.throwIfCancelled();
        String model = request.model().isBlank() ? defaultModel : request.model();
        if (model == null || model.isBlank()) throw errors.fatal("no model named in the request or the settings");
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(encode(request, model));
        } catch (IllegalArgumentException | JsonProcessingException e) {
            throw errors.fatal("cannot encode the request: " + e.getMessage());
        }
        HttpRequest httpRequest = request(chatPath(model, request.stream()))
                .header("content-type", "application/json")
                .header("accept", request.stream() ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        long started = System.nanoTime();
        try (Exchange exchange = Exchange.start(http, httpRequest, token, timeout, errors)) {
            HttpResponse<InputStream> response = awaitSuccess(exchange);
            ChatResponse result = request.stream() && isEventStream(response)
                    ? readStream(exchange, streamedAnswer(sink))
                    : readWhole(exchange, sink, request.stream());
            token.throwIfCancelled();
            log.debug("{} answered model {} in {} ms", name, model, (System.nanoTime() - started) / 1_000_000);
            return result;
        }
    }

    @Override
    public final List<String> listModels(CancelToken cancel) throws ProviderException {
        CancelToken token = cancel == null ? CancelToken.none() : cancel;
        HttpRequest httpRequest =
                request(modelsPath()).header("accept", "application/json").GET().build();
        try (Exchange exchange = Exchange.start(http, httpRequest, token, timeout, errors)) {
            awaitSuccess(exchange);
            return modelIds(parse(exchange.readAll(MAX_BODY), "model list"));
        }
    }

    /** The model ids of a model list: by default a {@code data} array of objects with an {@code id}. */
    protected List<String> modelIds(JsonNode root) {
        List<String> ids = new ArrayList<>();
        for (JsonNode m : root.path("data")) {
            if (m.path("id").isTextual()) ids.add(m.path("id").asText());
        }
        return List.copyOf(ids);
    }

    /** Aborts any exchange still in flight and releases the HTTP client's connections and threads. */
    @Override
    public void close() {
        http.shutdownNow();
    }

    /** The JSON in a body or an event, or a TRANSIENT failure naming {@code what} it was. */
    protected final JsonNode parse(byte[] bytes, String what) throws ProviderException {
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            throw errors.malformed("the " + what + " is not valid JSON");
        }
    }

    protected final JsonNode parse(String text, String what) throws ProviderException {
        return parse(text.getBytes(StandardCharsets.UTF_8), what);
    }

    protected final ProviderErrors errors() {
        return errors;
    }

    /**
     * An http(s) URL with a host, from configured text: the default when there is none, trailing slashes dropped.
     * Configuration errors never echo the URL, which may hold a key.
     */
    protected static URI httpUrl(String configured, String defaultUrl) {
        String url = configured == null || configured.isBlank() ? defaultUrl : configured.strip();
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

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(apiRoot + path))
                .timeout(timeout)
                .header("user-agent", "clawgate");
        authenticate(b, apiKey);
        return b;
    }

    // a non-2xx answer is read (bounded) and mapped before anything else sees it
    private HttpResponse<InputStream> awaitSuccess(Exchange exchange) throws ProviderException {
        HttpResponse<InputStream> response = exchange.awaitResponse();
        if (response.statusCode() / 100 == 2) return response;
        String body = new String(exchange.readAll(MAX_ERROR_BODY), StandardCharsets.UTF_8);
        ProviderException e = errors.fromHttp(response.statusCode(), response.headers(), body);
        log.debug("{} failed: {} ({})", name, e.getMessage(), e.kind());
        throw e;
    }

    private ChatResponse readStream(Exchange exchange, StreamedAnswer answer) throws ProviderException {
        ServerSentEvents events = new ServerSentEvents(exchange.body());
        try {
            for (ServerSentEvents.Event e; (e = events.next()) != null; ) {
                String data = e.data().strip();
                if (data.isEmpty()) continue;
                ChatResponse done = answer.onEvent(e.type(), data);
                if (done != null) return done;
            }
        } catch (IOException e) {
            throw exchange.readFailure(e);
        }
        exchange.throwIfAborted();
        return answer.onEnd();
    }

    private ChatResponse readWhole(Exchange exchange, StreamObserver observer, boolean streamWanted)
            throws ProviderException {
        ChatResponse response = decode(parse(exchange.readAll(MAX_BODY), "response"));
        // a server that ignored stream=true still owes the observer the text
        if (streamWanted) {
            if (response.reasoning() != null && !response.reasoning().isEmpty())
                observer.onReasoningDelta(response.reasoning());
            if (!response.text().isEmpty()) observer.onTextDelta(response.text());
        }
        return response;
    }

    private static boolean isEventStream(HttpResponse<?> response) {
        return response.headers()
                .firstValue("content-type")
                .orElse("")
                .toLowerCase(Locale.ROOT)
                .startsWith("text/event-stream");
    }
}
