package dev.clawgate.testkit.slack;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;

/** The app's Request URL in a test: records what Slack POSTed and answers as scripted. */
final class AppEndpoint implements AutoCloseable {
    /** One POST as received: headers (lower-case names, first value) and the raw body. */
    record Received(Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** How the app answers one POST: status, body, extra headers, and a pause before answering. */
    record Answer(int status, String body, Map<String, String> headers, long delayMillis) {
        static Answer ok() {
            return new Answer(200, "", Map.of(), 0);
        }

        static Answer status(int status) {
            return new Answer(status, "", Map.of(), 0);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Function<Received, Answer> answers = r -> Answer.ok();

    AppEndpoint() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/slack/events", this::handle);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/slack/events");
    }

    void answer(Function<Received, Answer> script) {
        this.answers = script;
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            Map<String, String> headers = new java.util.LinkedHashMap<>();
            ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.getFirst()));
            Received r = new Received(headers, ex.getRequestBody().readAllBytes());
            received.add(r);
            Answer a = answers.apply(r);
            if (a.delayMillis() > 0) Thread.sleep(a.delayMillis());
            a.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) ex.getResponseBody().write(body);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
