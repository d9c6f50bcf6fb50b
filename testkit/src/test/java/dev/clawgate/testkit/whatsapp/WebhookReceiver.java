package dev.clawgate.testkit.whatsapp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A minimal webhook endpoint standing in for the gateway: it records every POST (raw body and signature header),
 * answers the scripted statuses (then 200), and answers the verification GET by echoing {@code hub.challenge} when
 * {@code hub.verify_token} matches, 403 otherwise.
 */
final class WebhookReceiver implements AutoCloseable {
    record Received(byte[] body, String signature) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer http;
    private final String verifyToken;
    final List<Received> posts = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Integer> script = new ConcurrentLinkedQueue<>();

    WebhookReceiver(String verifyToken) throws IOException {
        this.verifyToken = verifyToken;
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        http.createContext("/webhooks/whatsapp", this::handle);
        http.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/webhooks/whatsapp");
    }

    void answerNext(Integer... statuses) {
        script.addAll(List.of(statuses));
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            if (ex.getRequestMethod().equals("GET")) {
                String mode = null, token = null, challenge = null;
                for (String pair : ex.getRequestURI().getRawQuery().split("&")) {
                    String[] kv = pair.split("=", 2);
                    String v = URLDecoder.decode(kv[1], StandardCharsets.UTF_8);
                    switch (kv[0]) {
                        case "hub.mode" -> mode = v;
                        case "hub.verify_token" -> token = v;
                        case "hub.challenge" -> challenge = v;
                        default -> {}
                    }
                }
                boolean ok = "subscribe".equals(mode) && verifyToken.equals(token) && challenge != null;
                byte[] b = ok ? challenge.getBytes(StandardCharsets.UTF_8) : new byte[0];
                ex.sendResponseHeaders(ok ? 200 : 403, b.length == 0 ? -1 : b.length);
                if (b.length > 0) ex.getResponseBody().write(b);
                return;
            }
            posts.add(new Received(
                    ex.getRequestBody().readAllBytes(), ex.getRequestHeaders().getFirst("X-Hub-Signature-256")));
            Integer status = script.poll();
            ex.sendResponseHeaders(status == null ? 200 : status, -1);
        }
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
