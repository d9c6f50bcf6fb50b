package dev.clawgate.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A web chat page without a browser: {@code java.net.http.WebSocket} speaking the JSON frames of SPEC CH-2. */
final class WebChatClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
    /**
     * Every frame received, as the capability harness sees platform calls: method = frame type, header "at" = arrival
     * in nanos.
     */
    final List<dev.clawgate.testkit.contract.PlatformCall> received = new java.util.concurrent.CopyOnWriteArrayList<>();

    final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final WebSocket socket;

    private WebChatClient(URI uri, String origin) {
        WebSocket.Builder b = HTTP.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        if (origin != null) b.header("Origin", origin);
        this.socket = b.buildAsync(uri, new Listener()).join();
    }

    static URI uri(int port, String client, String token) {
        String q = "client=" + URLEncoder.encode(client, StandardCharsets.UTF_8);
        if (token != null) q += "&token=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
        return URI.create("ws://127.0.0.1:" + port + "/chat/ws?" + q);
    }

    /** Opens the socket; a refused upgrade throws (a CompletionException around a WebSocketHandshakeException). */
    static WebChatClient open(int port, String client, String token) {
        return new WebChatClient(uri(port, client, token), null);
    }

    static WebChatClient open(URI uri, String origin) {
        return new WebChatClient(uri, origin);
    }

    void sendRaw(String frame) {
        socket.sendText(frame, true).join();
    }

    /** One message sent as several frames, {@code parts} of it. */
    void sendFragmented(String message, int parts) {
        int step = Math.max(1, message.length() / parts);
        for (int i = 0; i < message.length(); i += step) {
            int end = Math.min(message.length(), i + step);
            socket.sendText(message.substring(i, end), end == message.length()).join();
        }
    }

    void send(String id, String text) {
        sendRaw(JSON.createObjectNode()
                .put("type", "message")
                .put("id", id)
                .put("text", text)
                .toString());
    }

    /** The next frame; fails after the timeout. */
    JsonNode next() throws InterruptedException {
        JsonNode f = frames.poll(30, TimeUnit.SECONDS);
        if (f == null) throw new AssertionError("no frame from the gateway within 30 s");
        return f;
    }

    /** Frames up to and including {@code done} for message {@code id}. */
    List<JsonNode> untilDone(String id) throws InterruptedException {
        List<JsonNode> out = new ArrayList<>();
        while (true) {
            JsonNode f = next();
            out.add(f);
            if (f.path("type").asText().equals("done") && f.path("id").asText().equals(id)) return out;
        }
    }

    boolean noFrameWithin(Duration d) throws InterruptedException {
        return frames.poll(d.toMillis(), TimeUnit.MILLISECONDS) == null;
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed())
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").exceptionally(e -> null);
        socket.abort();
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    JsonNode frame = JSON.readTree(partial.toString());
                    received.add(new dev.clawgate.testkit.contract.PlatformCall(
                            frame.path("type").asText(),
                            partial.toString(),
                            java.util.Map.of("at", Long.toString(System.nanoTime()))));
                    frames.add(frame);
                } catch (Exception e) {
                    frames.add(JSON.createObjectNode().put("type", "unparsable").put("text", partial.toString()));
                }
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
            closed.completeExceptionally(error);
        }
    }
}
