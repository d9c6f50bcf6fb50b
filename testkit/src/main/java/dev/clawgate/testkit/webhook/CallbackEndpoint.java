package dev.clawgate.testkit.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.clawgate.testkit.contract.PlatformCall;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The platform's callback. {@code POST /callback} records every reply the gateway sends, then answers with the next
 * scripted {@link CallbackAnswer} (200 with {@code {"id": "reply-N"}} by default); it deduplicates nothing, so a reply
 * sent twice is kept and counted twice. {@code GET /callback?idempotency_key=K}, signed over the raw query string,
 * looks a reply up: 200 with the id of the first kept reply carrying K, or 404.
 */
final class CallbackEndpoint implements AutoCloseable {
    static final String PATH = "/callback";
    static final String LOOKUP_PARAM = "idempotency_key";
    private static final Logger LOG = LoggerFactory.getLogger(CallbackEndpoint.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PlatformSignature signature;
    private final Clock clock;
    private final Consumer<PlatformCall> calls;
    private final HttpServer http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<CallbackReply> replies = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<CallbackAnswer> script = new ConcurrentLinkedQueue<>();
    private final Map<String, String> firstIdByKey = new ConcurrentHashMap<>();
    private final AtomicLong replyIds = new AtomicLong();
    private final AtomicInteger unreadable = new AtomicInteger();
    private final AtomicInteger lookups = new AtomicInteger();
    private volatile Consumer<CallbackReply> listener = r -> {};

    CallbackEndpoint(PlatformSignature signature, Clock clock, Consumer<PlatformCall> calls) throws IOException {
        this.signature = signature;
        this.clock = clock;
        this.calls = calls;
        this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        http.setExecutor(executor);
        http.createContext(PATH, this::handle);
        http.start();
    }

    String url() {
        return "http://127.0.0.1:" + http.getAddress().getPort() + PATH;
    }

    void script(CallbackAnswer... answers) {
        script.addAll(List.of(answers));
    }

    void onReply(Consumer<CallbackReply> l) {
        this.listener = l;
    }

    List<CallbackReply> replies() {
        return List.copyOf(replies);
    }

    /** Callbacks whose body was not the reply JSON (they are answered 400 and not recorded). */
    int unreadable() {
        return unreadable.get();
    }

    /** Lookups asked, answered or not. */
    int lookups() {
        return lookups.get();
    }

    private void handle(HttpExchange ex) {
        try (ex) {
            switch (ex.getRequestMethod()) {
                case "POST" -> reply(ex);
                case "GET" -> lookup(ex);
                default -> answer(ex, 405, "{\"error\":\"POST or GET only\"}");
            }
        } catch (IOException e) {
            LOG.debug("callback client went away: {}", e.toString());
        }
    }

    private void reply(HttpExchange ex) throws IOException {
        byte[] body = ex.getRequestBody().readAllBytes();
        String sig = ex.getRequestHeaders().getFirst(PlatformSignature.HEADER);
        calls.accept(call(ex, new String(body, StandardCharsets.UTF_8), sig));
        boolean signed = signature.matches(body, sig);
        JsonNode n;
        try {
            n = JSON.readTree(body);
        } catch (IOException e) {
            n = null;
        }
        if (n == null || !n.isObject() || !n.path("turn_id").canConvertToLong()) {
            unreadable.incrementAndGet();
            answer(ex, 400, "{\"error\":\"not a reply\"}");
            return;
        }
        CallbackAnswer a = script.poll();
        if (a == null) a = CallbackAnswer.status(200);
        String key = text(n, LOOKUP_PARAM);
        String id = a.keep() ? "reply-" + replyIds.incrementAndGet() : null;
        // kept before any answer, so a lookup during a late answer finds it, as on a real platform
        if (id != null && key != null) firstIdByKey.putIfAbsent(key, id);
        CallbackReply reply = new CallbackReply(
                n.path("turn_id").asLong(),
                text(n, "in_reply_to"),
                text(n, "chat"),
                text(n, "thread"),
                text(n, "text"),
                text(n, "kind"),
                key,
                clock.instant(),
                recordedStatus(a),
                signed);
        replies.add(reply);
        listener.accept(reply);
        if (!a.delay().isZero() && !pause(a)) return;
        if (a.hangUp()) {
            // closing an exchange whose headers were never sent drops the connection: the client sees a reset
            return;
        }
        if (a.retryAfter() != null)
            ex.getResponseHeaders()
                    .set("Retry-After", Long.toString(a.retryAfter().toSeconds()));
        answer(ex, a.status(), id != null ? "{\"id\":\"" + id + "\"}" : "{\"error\":\"scripted\"}");
    }

    /** What {@link CallbackReply#status} says: 2xx exactly when the platform kept the reply. */
    private static int recordedStatus(CallbackAnswer a) {
        boolean ok = a.status() / 100 == 2;
        if (a.keep()) return ok ? a.status() : 200;
        return ok ? 503 : a.status();
    }

    private static boolean pause(CallbackAnswer a) {
        try {
            Thread.sleep(a.delay());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void lookup(HttpExchange ex) throws IOException {
        lookups.incrementAndGet();
        String rawQuery = ex.getRequestURI().getRawQuery();
        String sig = ex.getRequestHeaders().getFirst(PlatformSignature.HEADER);
        calls.accept(call(ex, "", sig));
        byte[] signedBytes = (rawQuery == null ? "" : rawQuery).getBytes(StandardCharsets.UTF_8);
        if (!signature.matches(signedBytes, sig)) {
            answer(ex, 401, "{\"error\":\"bad signature\"}");
            return;
        }
        String key = param(rawQuery, LOOKUP_PARAM);
        if (key == null) {
            answer(ex, 400, "{\"error\":\"idempotency_key is missing\"}");
            return;
        }
        String id = firstIdByKey.get(key);
        if (id == null) answer(ex, 404, "{\"error\":\"no such message\"}");
        else answer(ex, 200, "{\"id\":\"" + id + "\"}");
    }

    private static PlatformCall call(HttpExchange ex, String body, String signatureHeader) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(
                ":path",
                ex.getRequestURI().getRawPath()
                        + (ex.getRequestURI().getRawQuery() == null
                                ? ""
                                : "?" + ex.getRequestURI().getRawQuery()));
        if (signatureHeader != null)
            headers.put(PlatformSignature.HEADER.toLowerCase(java.util.Locale.ROOT), signatureHeader);
        return new PlatformCall(ex.getRequestMethod() + " " + PATH, body, headers);
    }

    private static String param(String rawQuery, String name) {
        if (rawQuery == null) return null;
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name))
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        }
        return null;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("content-type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) LOG.warn("callback handlers still running");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
