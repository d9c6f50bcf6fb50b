package dev.clawgate.testkit.openai;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fake OpenAI-compatible chat-completions server on a free loopback port. It speaks the real
 * HTTP + SSE wire format, so the production client runs unchanged against it.
 *
 * <p>Each {@code POST /v1/chat/completions} takes the next {@link #enqueue enqueued} reply; when
 * the queue is empty it asks the {@link #respondWith responder}, then falls back to the
 * {@link #defaultReply default reply} (by default: echo the last user message). Every request is
 * recorded before it is answered. The JDK's HTTP server is used because it gives each streamed
 * event its own flush and reports a closed connection as a failed write.
 */
public final class FakeOpenAiServer implements AutoCloseable {
    static final String CHAT_PATH = "/v1/chat/completions";
    static final String MODELS_PATH = "/v1/models";
    private static final Logger LOG = LoggerFactory.getLogger(FakeOpenAiServer.class);

    private final HttpServer http;
    private final ExecutorService executor;
    private final ConcurrentLinkedQueue<Reply> queue = new ConcurrentLinkedQueue<>();
    private final RequestLog log = new RequestLog();
    private final AtomicLong completionIds = new AtomicLong();
    private volatile Function<JsonNode, Reply> responder;
    private volatile Function<JsonNode, Reply> fallback = FakeOpenAiServer::echo;
    private volatile List<String> models = List.of("gpt-4o-mini", "gpt-4o");
    private volatile String requiredApiKey;

    private FakeOpenAiServer() throws IOException {
        executor = Executors.newVirtualThreadPerTaskExecutor();
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        http.setExecutor(executor);
        http.createContext("/", this::handle);
        http.start();
    }

    /** Starts a server on a free port of 127.0.0.1. */
    public static FakeOpenAiServer start() {
        try {
            return new FakeOpenAiServer();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the fake OpenAI server", e);
        }
    }

    /** {@code http://127.0.0.1:PORT/v1}: what a client configures as its base URL. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    public int port() {
        return http.getAddress().getPort();
    }

    /** Scripts the next answers, consumed one per chat-completions request, in order. */
    public FakeOpenAiServer enqueue(Reply... replies) {
        for (Reply r : replies) queue.add(Objects.requireNonNull(r));
        return this;
    }

    /** How many enqueued replies have not been used yet. */
    public int pending() {
        return queue.size();
    }

    /**
     * Answers requests the queue does not cover, from the parsed request body. Returning null
     * falls through to the default reply.
     */
    public FakeOpenAiServer respondWith(Function<JsonNode, Reply> responder) {
        this.responder = responder;
        return this;
    }

    /** The answer when neither queue nor responder has one (fast: fit for load tests). */
    public FakeOpenAiServer defaultReply(Reply reply) {
        Objects.requireNonNull(reply);
        this.fallback = body -> reply;
        return this;
    }

    /** Restores the built-in default: answer with the text of the last user message. */
    public FakeOpenAiServer echoLastUserMessage() {
        this.fallback = FakeOpenAiServer::echo;
        return this;
    }

    /** The ids {@code GET /v1/models} lists. */
    public FakeOpenAiServer models(String... ids) {
        this.models = List.of(ids);
        return this;
    }

    /** Rejects requests without {@code Authorization: Bearer <key>} with OpenAI's 401; null accepts any. */
    public FakeOpenAiServer requireApiKey(String key) {
        this.requiredApiKey = key;
        return this;
    }

    /** Every request so far, in arrival order. */
    public List<RecordedRequest> requests() {
        return log.requests();
    }

    /** Only the chat-completions requests. */
    public List<RecordedRequest> chatRequests() {
        return requests().stream().filter(RecordedRequest::isChatCompletion).toList();
    }

    /** The most recent request; fails when there was none. */
    public RecordedRequest lastRequest() {
        List<RecordedRequest> all = requests();
        if (all.isEmpty()) throw new AssertionError("the fake OpenAI server received no request");
        return all.getLast();
    }

    /** Waits until at least {@code n} requests arrived and returns them; fails after {@code timeout}. */
    public List<RecordedRequest> awaitRequests(int n, Duration timeout) {
        boolean reached = log.awaitRequests(n, timeout);
        List<RecordedRequest> all = requests();
        if (!reached) {
            throw new AssertionError("expected " + n + " requests within " + timeout + " but got " + all.size());
        }
        return all;
    }

    /** How many times a client closed its connection while an answer was still being written. */
    public int disconnects() {
        return log.disconnects();
    }

    /**
     * True once a client closed the connection during an answer (a write or flush failed). A
     * closed connection is noticed at the next write, so slow streams report it one chunk later.
     */
    public boolean awaitClientDisconnect(Duration timeout) {
        return log.awaitDisconnect(timeout);
    }

    /** Forgets scripted replies, recorded requests and disconnects (for a server shared by tests). */
    public void reset() {
        queue.clear();
        log.clear();
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) LOG.warn("fake OpenAI server handlers still running");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(HttpExchange ex) {
        try (ex) {
            byte[] raw = ex.getRequestBody().readAllBytes();
            RecordedRequest req = record(ex, new String(raw, StandardCharsets.UTF_8));
            String path = ex.getRequestURI().getPath();
            if (CHAT_PATH.equals(path) && "POST".equals(ex.getRequestMethod())) {
                chat(ex, req);
            } else if (MODELS_PATH.equals(path) && "GET".equals(ex.getRequestMethod())) {
                if (authorised(ex)) sendJson(ex, 200, Map.of(), OpenAiJson.models(models, created()));
            } else {
                sendJson(ex, 404, Map.of(), OpenAiJson.errorBody("Unknown request URL: " + ex.getRequestMethod()
                        + " " + path + ".", "invalid_request_error", null, "unknown_url"));
            }
        } catch (IOException e) {
            countDisconnect(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void chat(HttpExchange ex, RecordedRequest req) throws IOException, InterruptedException {
        if (!authorised(ex)) return;
        if (req.body().isMissingNode()) {
            sendJson(ex, 400, Map.of(), OpenAiJson.errorBody("We could not parse the JSON body of your request.",
                    "invalid_request_error", null, null));
            return;
        }
        String problem = RequestValidation.problem(req.body());
        if (problem != null) {
            sendJson(ex, 400, Map.of(), OpenAiJson.errorBody(problem, "invalid_request_error", null, null));
            return;
        }
        Reply reply = next(req.body());
        sleep(reply.delayBefore);
        if (reply.isError()) {
            sendJson(ex, reply.status, reply.headers, reply.errorBody);
            return;
        }
        OpenAiJson.Envelope env = new OpenAiJson.Envelope("chatcmpl-fake" + completionIds.incrementAndGet(),
                created(), req.model(), reply.promptTokens >= 0 ? reply.promptTokens : estimatePrompt(req.body()),
                reply.completionTokens >= 0 ? reply.completionTokens : estimateCompletion(reply));
        if (!req.stream()) {
            if (reply.streamError != null) sendJson(ex, 500, reply.headers, reply.streamError);
            else sendJson(ex, 200, reply.headers, OpenAiJson.completion(env, reply));
            return;
        }
        boolean includeUsage = req.body().path("stream_options").path("include_usage").asBoolean(false);
        ex.getResponseHeaders().set("content-type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("cache-control", "no-cache");
        reply.headers.forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        List<String> events = OpenAiJson.chunks(env, reply, includeUsage);
        if (reply.truncateAfter >= 0) events = events.subList(0, Math.min(reply.truncateAfter, events.size()));
        for (String data : events) {
            sleep(reply.delayPerChunk);
            out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    private Reply next(JsonNode body) {
        Reply r = queue.poll();
        if (r != null) return r;
        Function<JsonNode, Reply> custom = responder;
        if (custom != null) {
            r = custom.apply(body);
            if (r != null) return r;
        }
        return fallback.apply(body);
    }

    private boolean authorised(HttpExchange ex) throws IOException {
        String key = requiredApiKey;
        if (key == null) return true;
        String auth = ex.getRequestHeaders().getFirst("authorization");
        if (("Bearer " + key).equals(auth)) return true;
        sendJson(ex, 401, Map.of(), OpenAiJson.errorBody(auth == null
                ? "You didn't provide an API key. You need to provide your API key in an Authorization header "
                  + "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
                : "Incorrect API key provided: " + auth.substring(Math.min(auth.length(), 7)) + ".",
                "invalid_request_error", null, auth == null ? null : "invalid_api_key"));
        return false;
    }

    private RecordedRequest record(HttpExchange ex, String bodyText) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
        JsonNode body = null;
        if (!bodyText.isBlank()) {
            try {
                body = OpenAiJson.MAPPER.readTree(bodyText);
            } catch (IOException e) {
                LOG.debug("request body is not JSON: {}", e.getMessage());
            }
        }
        RecordedRequest req = new RecordedRequest(ex.getRequestMethod(), ex.getRequestURI().getPath(),
                ex.getRequestURI().getRawQuery(), headers, bodyText, body);
        log.add(req);
        return req;
    }

    private void countDisconnect(IOException e) {
        LOG.debug("client went away: {}", e.toString());
        log.disconnected();
    }

    private static void sendJson(HttpExchange ex, int status, Map<String, String> headers, String json)
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

    private static void sleep(Duration d) throws InterruptedException {
        if (!d.isZero() && !d.isNegative()) Thread.sleep(d);
    }

    private static long created() {
        return System.currentTimeMillis() / 1000;
    }

    private static long estimatePrompt(JsonNode body) {
        long chars = 0;
        for (JsonNode m : body.path("messages")) chars += m.path("content").toString().length();
        return Math.max(1, chars / 4);
    }

    private static long estimateCompletion(Reply r) {
        long chars = r.content == null ? 0 : r.content.length();
        if (r.reasoning != null) chars += r.reasoning.length();
        for (Reply.Call c : r.calls) chars += c.name().length() + c.arguments().length();
        return Math.max(1, chars / 4);
    }

    private static Reply echo(JsonNode body) {
        String text = lastUserText(body);
        return Reply.text(text == null ? "" : text);
    }

    static String lastUserText(JsonNode body) {
        JsonNode messages = body.path("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode m = messages.get(i);
            if (!"user".equals(m.path("role").asText())) continue;
            JsonNode content = m.path("content");
            if (content.isTextual()) return content.asText();
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : content) {
                if ("text".equals(part.path("type").asText())) sb.append(part.path("text").asText());
            }
            return sb.toString();
        }
        return null;
    }
}
