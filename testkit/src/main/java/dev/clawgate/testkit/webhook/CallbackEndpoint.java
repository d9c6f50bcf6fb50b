package dev.clawgate.testkit.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
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
 * The platform's {@code POST /callback}: records every reply the gateway sends, then answers
 * with the next scripted status (200 with {@code {"id": "reply-N"}} by default).
 */
final class CallbackEndpoint implements AutoCloseable {
    static final String PATH = "/callback";
    private static final Logger LOG = LoggerFactory.getLogger(CallbackEndpoint.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PlatformSignature signature;
    private final Clock clock;
    private final HttpServer http;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<CallbackReply> replies = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Integer> scriptedStatuses = new ConcurrentLinkedQueue<>();
    private final AtomicLong replyIds = new AtomicLong();
    private final AtomicInteger unreadable = new AtomicInteger();
    private volatile Consumer<CallbackReply> listener = r -> { };

    CallbackEndpoint(PlatformSignature signature, Clock clock) throws IOException {
        this.signature = signature;
        this.clock = clock;
        this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        http.setExecutor(executor);
        http.createContext(PATH, this::handle);
        http.start();
    }

    String url() {
        return "http://127.0.0.1:" + http.getAddress().getPort() + PATH;
    }

    void script(int... statuses) {
        for (int s : statuses) scriptedStatuses.add(s);
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

    private void handle(HttpExchange ex) {
        try (ex) {
            if (!"POST".equals(ex.getRequestMethod())) {
                answer(ex, 405, "{\"error\":\"POST only\"}");
                return;
            }
            byte[] body = ex.getRequestBody().readAllBytes();
            boolean signed = signature.matches(body, ex.getRequestHeaders().getFirst(PlatformSignature.HEADER));
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
            Integer scripted = scriptedStatuses.poll();
            int status = scripted == null ? 200 : scripted;
            CallbackReply reply = new CallbackReply(n.path("turn_id").asLong(), text(n, "in_reply_to"), text(n, "chat"),
                    text(n, "thread"), text(n, "text"), text(n, "kind"), clock.instant(), status, signed);
            replies.add(reply);
            listener.accept(reply);
            answer(ex, status, status / 100 == 2 ? "{\"id\":\"reply-" + replyIds.incrementAndGet() + "\"}" : "{\"error\":\"scripted\"}");
        } catch (IOException e) {
            LOG.debug("callback client went away: {}", e.toString());
        }
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
