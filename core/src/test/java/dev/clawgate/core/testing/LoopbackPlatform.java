package dev.clawgate.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A scripted chat platform on a loopback port, for outbox tests of core: {@code POST /send} takes a JSON message and
 * answers {@code {"id": ...}}; {@code GET /lookup?key=K} says whether a message with that idempotency key arrived (200
 * with its id, 404); {@code POST /upload} takes a media file before the message that shows it. Each send can be
 * scripted to fail (status, retry-after), to answer without an id, or to be kept but answered too late; uploads can be
 * held until released (a slow media upload).
 */
public final class LoopbackPlatform implements AutoCloseable {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** How the platform answers one send. */
    public record Answer(int status, Integer retryAfterSecs, boolean keep, long delayMs, boolean withId) {
        public static Answer ok() {
            return new Answer(200, null, true, 0, true);
        }

        public static Answer status(int status) {
            return new Answer(status, null, false, 0, true);
        }

        public static Answer rateLimited(int retryAfterSecs) {
            return new Answer(429, retryAfterSecs, false, 0, true);
        }

        /** Keeps the message but answers after {@code delayMs}: the client times out not knowing. */
        public static Answer keptButSlow(long delayMs) {
            return new Answer(200, null, true, delayMs, true);
        }

        /** Answers after {@code delayMs} without keeping it: a timeout that delivered nothing. */
        public static Answer lostAndSlow(long delayMs) {
            return new Answer(503, null, false, delayMs, true);
        }

        /** 200 with no message id. */
        public static Answer noIdentity() {
            return new Answer(200, null, true, 0, false);
        }
    }

    /** One request, as it arrived. */
    public record Call(String method, JsonNode body, String query) {}

    private final HttpServer server;
    private final ReentrantLock lock = new ReentrantLock();
    private final Deque<Answer> script = new ArrayDeque<>();
    private final Map<String, String> delivered = new LinkedHashMap<>();
    /** Every kept message's text, duplicates included: what users saw. */
    private final List<String> seen = new java.util.ArrayList<>();

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();
    private volatile Consumer<Call> onSend = c -> {};
    private volatile java.util.concurrent.CountDownLatch uploadGate = new java.util.concurrent.CountDownLatch(0);
    private final List<Integer> uploadSizes = new CopyOnWriteArrayList<>();

    public LoopbackPlatform() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/send", this::send);
        server.createContext("/lookup", this::lookup);
        server.createContext("/upload", this::upload);
        server.start();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The next sends get these answers, in order; after them every send succeeds. */
    public LoopbackPlatform script(Answer... answers) {
        lock.lock();
        try {
            script.addAll(List.of(answers));
        } finally {
            lock.unlock();
        }
        return this;
    }

    /** Runs before each send is answered: a test reads the store's state at the moment of platform I/O. */
    public void onSend(Consumer<Call> listener) {
        onSend = listener;
    }

    /** Uploads wait until {@link #releaseUploads()}: a slow media upload a test can abort. */
    public void holdUploads() {
        uploadGate = new java.util.concurrent.CountDownLatch(1);
    }

    public void releaseUploads() {
        uploadGate.countDown();
    }

    /** The sizes of the uploads that arrived, in order. */
    public List<Integer> uploadSizes() {
        return List.copyOf(uploadSizes);
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    public List<Call> calls(String method) {
        return calls.stream().filter(c -> c.method().equals(method)).toList();
    }

    /** The texts the platform kept, in arrival order, duplicates included: what users saw. */
    public List<String> deliveredTexts() {
        lock.lock();
        try {
            return List.copyOf(seen);
        } finally {
            lock.unlock();
        }
    }

    /** The idempotency keys of the kept messages. */
    public List<String> deliveredKeys() {
        lock.lock();
        try {
            return List.copyOf(delivered.keySet());
        } finally {
            lock.unlock();
        }
    }

    private void send(HttpExchange x) throws IOException {
        JsonNode body = MAPPER.readTree(x.getRequestBody());
        Call call = new Call("send", body, null);
        calls.add(call);
        Answer a;
        lock.lock();
        try {
            a = script.isEmpty() ? Answer.ok() : script.poll();
        } finally {
            lock.unlock();
        }
        String id = null;
        if (a.keep()) {
            id = "m-" + ids.incrementAndGet();
            lock.lock();
            try {
                delivered.put(
                        body.path("key").asText(), id + "|" + body.path("text").asText());
                seen.add(body.path("text").asText());
            } finally {
                lock.unlock();
            }
        }
        // after a kept message is recorded: a listener that aborts the client sees the platform already holding it,
        // so the client's lookup cannot overtake the keep (it did, rarely, under load)
        onSend.accept(call);
        if (a.delayMs() > 0) {
            try {
                Thread.sleep(a.delayMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (a.retryAfterSecs() != null)
            x.getResponseHeaders().add("Retry-After", a.retryAfterSecs().toString());
        String answer = a.status() == 200
                ? (a.withId() ? "{\"id\":\"" + id + "\"}" : "{}")
                : "{\"error\":\"scripted " + a.status() + "\"}";
        reply(x, a.status(), answer);
    }

    private void upload(HttpExchange x) throws IOException {
        byte[] bytes = x.getRequestBody().readAllBytes();
        calls.add(new Call("upload", null, null));
        uploadSizes.add(bytes.length);
        try {
            uploadGate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        byte[] answer = ("{\"upload\":\"u-" + ids.incrementAndGet() + "\"}").getBytes(StandardCharsets.UTF_8);
        try {
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, answer.length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(answer);
            }
        } catch (IOException clientGone) {
            // the client aborted the upload (a cancelled run): nothing to answer
        }
    }

    private void lookup(HttpExchange x) throws IOException {
        String query = x.getRequestURI().getQuery();
        calls.add(new Call("lookup", null, query));
        String key = query == null ? "" : query.replaceFirst("^key=", "");
        String found;
        lock.lock();
        try {
            found = delivered.get(key);
        } finally {
            lock.unlock();
        }
        if (found == null) reply(x, 404, "{}");
        else reply(x, 200, "{\"id\":\"" + found.substring(0, found.indexOf('|')) + "\"}");
    }

    private static void reply(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        } catch (IOException clientGone) {
            // the client timed out and closed: that is the scripted case, the message is kept or not as scripted
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
