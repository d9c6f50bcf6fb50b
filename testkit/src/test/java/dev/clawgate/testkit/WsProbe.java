package dev.clawgate.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A plain JDK WebSocket client for testing the fakes' sockets: frames queued as they come, the close code kept. */
public final class WsProbe implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final LinkedBlockingQueue<String> frames = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final WebSocket socket;

    private WsProbe(URI uri) {
        StringBuilder partial = new StringBuilder();
        WebSocket.Listener listener = new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    frames.add(partial.toString());
                    partial.setLength(0);
                }
                ws.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
            }

            @Override
            public void onError(WebSocket ws, Throwable error) {
                closed.complete(1006);
            }
        };
        socket = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .buildAsync(uri, listener)
                .join();
    }

    /** Connects to {@code uri}; throws when the server refuses the upgrade. */
    public static WsProbe connect(String uri) {
        return new WsProbe(URI.create(uri));
    }

    /** The next frame, waiting up to {@code timeout}; fails the test when none comes. */
    public String next(Duration timeout) throws InterruptedException {
        String f = frames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (f == null) throw new AssertionError("no frame within " + timeout);
        return f;
    }

    public JsonNode nextJson(Duration timeout) throws InterruptedException, IOException {
        return JSON.readTree(next(timeout));
    }

    /** The next frame within {@code timeout}, or null. */
    public String poll(Duration timeout) throws InterruptedException {
        return frames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public void send(String text) {
        socket.sendText(text, true).join();
    }

    public void send(JsonNode json) {
        send(json.toString());
    }

    /** Closes with {@code code} (a close frame), as a client ending the session does. */
    public void close(int code) {
        socket.sendClose(code, "bye").join();
    }

    /** Drops the connection without a close frame. */
    public void abort() {
        socket.abort();
    }

    /** The close code the server sent (1006 for a connection lost without one), waiting up to {@code timeout}. */
    public int awaitClose(Duration timeout) throws Exception {
        return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The close code if the socket ended within {@code timeout}, else null. */
    public Integer closeCodeWithin(Duration timeout)
            throws InterruptedException, java.util.concurrent.ExecutionException {
        try {
            return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return null;
        }
    }

    public boolean isClosed() {
        return closed.isDone();
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) socket.abort();
    }
}
