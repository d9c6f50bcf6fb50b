package dev.clawgate.core.channel;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.LongPredicate;

/**
 * A loopback platform with cumulative acks, like Telegram's getUpdates: {@code GET /updates?offset=N} confirms
 * everything below N and returns the updates from N on, one "seq text" per line. It checks at every ack that all
 * acknowledged updates reached the stage, and records any violation.
 */
final class FakeUpdatesPlatform implements AutoCloseable {
    private final HttpServer server;
    private final int total;
    private final LongPredicate reachedStage;
    final List<Long> acks = new CopyOnWriteArrayList<>();
    final List<String> violations = new CopyOnWriteArrayList<>();
    volatile long confirmed;

    FakeUpdatesPlatform(int total, LongPredicate reachedStage) throws IOException {
        this.total = total;
        this.reachedStage = reachedStage;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/updates", ex -> {
            long offset = Long.parseLong(ex.getRequestURI().getQuery().replace("offset=", ""));
            acks.add(offset);
            for (long s = confirmed; s < offset; s++) {
                if (!reachedStage.test(s)) violations.add("update " + s + " acknowledged before it reached the stage");
            }
            confirmed = Math.max(confirmed, offset);
            StringBuilder body = new StringBuilder();
            for (long s = confirmed; s < total; s++)
                body.append(s).append(" message ").append(s).append('\n');
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(bytes);
                }
            }
            ex.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/updates";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
