package dev.clawgate.testkit.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the fake model servers share: a loopback HTTP server, the scripted replies (queue, then responder, then
 * default), the request log and the disconnects. Each fake adds only its API's routes, checks and wire format. The
 * JDK's HTTP server is used because it gives each streamed event its own flush and reports a closed connection as a
 * failed write.
 *
 * @param <S> the fake itself, so that the scripting methods chain
 * @param <R> its reply type
 * @param <Q> its recorded-request type
 */
public abstract class FakeModelServer<S extends FakeModelServer<S, R, Q>, R, Q extends ModelApiRequest>
        implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final String api;
    private final ModelApiRequest.Factory<Q> recorded;
    private final Function<JsonNode, R> echo;
    private final HttpServer http;
    private final ExecutorService executor;
    private final ConcurrentLinkedQueue<R> queue = new ConcurrentLinkedQueue<>();
    private final RequestLog<Q> requestLog = new RequestLog<>();
    private volatile Function<JsonNode, R> responder;
    private volatile Function<JsonNode, R> fallback;
    private volatile List<String> models;
    private volatile String requiredApiKey;

    /**
     * Binds a free port of 127.0.0.1; {@link #listening()} starts serving.
     *
     * @param api the API's name in messages ({@code OpenAI}, {@code Anthropic})
     * @param echo the built-in default reply, from the request body
     */
    protected FakeModelServer(
            String api, ModelApiRequest.Factory<Q> recorded, Function<JsonNode, R> echo, List<String> models) {
        this.api = api;
        this.recorded = recorded;
        this.echo = echo;
        this.fallback = echo;
        this.models = List.copyOf(models);
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        } catch (IOException e) {
            executor.shutdownNow();
            throw new UncheckedIOException("could not start the fake " + api + " server", e);
        }
        http.setExecutor(executor);
        http.createContext("/", this::handle);
    }

    // started only once the subclass is fully built, since its handler runs on other threads
    protected final S listening() {
        http.start();
        return self();
    }

    public int port() {
        return http.getAddress().getPort();
    }

    /** Scripts the next answers, consumed one per model request, in order. */
    @SafeVarargs
    public final S enqueue(R... replies) {
        for (R r : replies) queue.add(Objects.requireNonNull(r));
        return self();
    }

    /** How many enqueued replies have not been used yet. */
    public int pending() {
        return queue.size();
    }

    /**
     * Answers requests the queue does not cover, from the parsed request body. Returning null falls through to the
     * default reply.
     */
    public S respondWith(Function<JsonNode, R> responder) {
        this.responder = responder;
        return self();
    }

    /** The answer when neither queue nor responder has one (fast: fit for load tests). */
    public S defaultReply(R reply) {
        Objects.requireNonNull(reply);
        this.fallback = body -> reply;
        return self();
    }

    /** Restores the built-in default: answer with the text of the last user message. */
    public S echoLastUserMessage() {
        this.fallback = echo;
        return self();
    }

    /** The ids {@code GET /v1/models} lists. */
    public S models(String... ids) {
        this.models = List.of(ids);
        return self();
    }

    /** Accepts only this API key (with the API's own 401 otherwise); with null, the default, see the fake. */
    public S requireApiKey(String key) {
        this.requiredApiKey = key;
        return self();
    }

    /** Every request so far, in arrival order. */
    public List<Q> requests() {
        return requestLog.requests();
    }

    /** The most recent request; fails when there was none. */
    public Q lastRequest() {
        List<Q> all = requests();
        if (all.isEmpty()) throw new AssertionError("the fake " + api + " server received no request");
        return all.getLast();
    }

    /** Waits until at least {@code n} requests arrived and returns them; fails after {@code timeout}. */
    public List<Q> awaitRequests(int n, Duration timeout) {
        boolean reached = requestLog.awaitRequests(n, timeout);
        List<Q> all = requests();
        if (!reached)
            throw new AssertionError("expected " + n + " requests within " + timeout + " but got " + all.size());
        return all;
    }

    /** How many times a client closed its connection while an answer was still being written. */
    public int disconnects() {
        return requestLog.disconnects();
    }

    /**
     * True once a client closed the connection during an answer (a write or flush failed). A closed connection is
     * noticed at the next write, so slow streams report it one event later.
     */
    public boolean awaitClientDisconnect(Duration timeout) {
        return requestLog.awaitDisconnect(timeout);
    }

    /** Forgets scripted replies, recorded requests and disconnects (for a server shared by tests). */
    public void reset() {
        queue.clear();
        requestLog.clear();
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) log.warn("fake {} server handlers still running", api);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Answers one request, already recorded; a failed write means the client went away. */
    protected abstract void answer(HttpExchange ex, Q request) throws IOException, InterruptedException;

    /** The next scripted reply for a model request: the queue's, else the responder's, else the default. */
    protected final R nextReply(JsonNode body) {
        R r = queue.poll();
        if (r != null) return r;
        Function<JsonNode, R> custom = responder;
        if (custom != null) {
            r = custom.apply(body);
            if (r != null) return r;
        }
        return fallback.apply(body);
    }

    protected final List<String> modelIds() {
        return models;
    }

    /** The key set with {@link #requireApiKey}, or null. */
    protected final String requiredApiKey() {
        return requiredApiKey;
    }

    protected static void sendJson(HttpExchange ex, int status, Map<String, String> headers, String json)
            throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("content-type", "application/json");
        headers.forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            OutputStream out = ex.getResponseBody();
            out.write(bytes);
            out.flush();
        }
    }

    /** Waits the delivery's delay, then sends its error answer if it is one; true when it was. */
    protected static boolean sentError(HttpExchange ex, Delivery delivery) throws IOException, InterruptedException {
        sleep(delivery.delayBefore());
        if (!delivery.isError()) return false;
        sendJson(ex, delivery.status(), delivery.headers(), delivery.errorBody());
        return true;
    }

    /** Sends SSE frames (each ending in a blank line) one flush apiece, paced and cut as the delivery says. */
    protected static void stream(HttpExchange ex, Delivery delivery, List<String> frames)
            throws IOException, InterruptedException {
        ex.getResponseHeaders().set("content-type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("cache-control", "no-cache");
        delivery.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        int limit = delivery.truncateAfter();
        List<String> sent = limit >= 0 ? frames.subList(0, Math.min(limit, frames.size())) : frames;
        for (String frame : sent) {
            sleep(delivery.delayPerChunk());
            out.write(frame.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    private void handle(HttpExchange ex) {
        try (ex) {
            byte[] raw = ex.getRequestBody().readAllBytes();
            answer(ex, record(ex, new String(raw, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            log.debug("client went away: {}", e.toString());
            requestLog.disconnected();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Q record(HttpExchange ex, String bodyText) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
        JsonNode body = null;
        if (!bodyText.isBlank()) {
            try {
                body = JSON.readTree(bodyText);
            } catch (IOException e) {
                log.debug("request body is not JSON: {}", e.getMessage());
            }
        }
        Q req = recorded.create(
                ex.getRequestMethod(),
                ex.getRequestURI().getPath(),
                ex.getRequestURI().getRawQuery(),
                headers,
                bodyText,
                body);
        requestLog.add(req);
        return req;
    }

    private static void sleep(Duration d) throws InterruptedException {
        if (!d.isZero() && !d.isNegative()) Thread.sleep(d);
    }

    @SuppressWarnings("unchecked")
    private S self() {
        return (S) this;
    }
}
