package dev.clawgate.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * CPU per request of the HTTP clients the gateway could use for the model and the platform (issue 27): the JDK client
 * as the gateway builds it (its default executor, a cached pool of platform threads), the JDK client with a
 * virtual-thread executor, and Jetty's client (on the class path through Javalin). Each client posts a small JSON body
 * to the same local Jetty server and reads a small JSON answer, from {@code concurrency} virtual threads, as turns do;
 * the process's CPU time per request is the server's share (the same for every client) plus the client's.
 *
 * <pre>java -cp ... dev.clawgate.bench.HttpClientCost [requests] [concurrency]</pre>
 */
public final class HttpClientCost {
    private static final byte[] BODY = ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\""
                    + "x".repeat(200) + "\"}]}")
            .getBytes(StandardCharsets.UTF_8);
    private static final byte[] ANSWER = ("{\"ok\":true,\"result\":{\"message_id\":1,\"text\":\"" + "y".repeat(150)
                    + "\"}}")
            .getBytes(StandardCharsets.UTF_8);

    interface Poster extends AutoCloseable {
        int post(URI uri) throws Exception;
    }

    private HttpClientCost() {}

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                org.eclipse.jetty.io.Content.Source.consumeAll(request);
                response.getHeaders().put("Content-Type", "application/json");
                response.write(true, ByteBuffer.wrap(ANSWER), callback);
                return true;
            }
        });
        server.start();
        URI uri = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/bot/sendMessage");
        try {
            System.out.println("| client | CPU µs per request | wall µs per request |");
            System.out.println("|---|---|---|");
            for (int round = 0; round < 2; round++) {
                for (String kind : List.of("jdk-default", "jdk-virtual-executor", "jetty")) {
                    try (Poster p = poster(kind)) {
                        run(p, uri, requests / 4, concurrency); // warm-up
                        double[] r = run(p, uri, requests, concurrency);
                        if (round == 1) System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f |%n", kind, r[0], r[1]);
                    }
                }
            }
        } finally {
            server.stop();
        }
    }

    static Poster poster(String kind) throws Exception {
        return switch (kind) {
            case "jdk-default" -> jdk(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1));
            case "jdk-virtual-executor" -> {
                ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor();
                yield jdk(HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .executor(ex));
            }
            case "jetty" -> jetty();
            default -> throw new IllegalArgumentException(kind);
        };
    }

    static Poster jdk(HttpClient.Builder builder) {
        HttpClient http = builder.connectTimeout(Duration.ofSeconds(5)).build();
        return new Poster() {
            @Override
            public int post(URI uri) throws Exception {
                HttpResponse<byte[]> r = http.send(
                        HttpRequest.newBuilder(uri)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(BODY))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                return r.body().length;
            }

            @Override
            public void close() {
                http.close();
            }
        };
    }

    static Poster jetty() throws Exception {
        org.eclipse.jetty.client.HttpClient http = new org.eclipse.jetty.client.HttpClient();
        http.setMaxConnectionsPerDestination(64);
        http.start();
        return new Poster() {
            @Override
            public int post(URI uri) throws Exception {
                ContentResponse r = http.POST(uri)
                        .body(new BytesRequestContent("application/json", BODY))
                        .send();
                return r.getContent().length;
            }

            @Override
            public void close() throws Exception {
                http.stop();
            }
        };
    }

    /** CPU and wall microseconds per request. */
    static double[] run(Poster p, URI uri, int requests, int concurrency) throws Exception {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        AtomicInteger left = new AtomicInteger(requests);
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < concurrency; i++)
                all.add(threads.submit(() -> {
                    while (left.getAndDecrement() > 0)
                        if (p.post(uri) != ANSWER.length) throw new IllegalStateException("short answer");
                    return null;
                }));
            for (Future<?> f : all) f.get();
        }
        long cpu = os.getProcessCpuTime() - cpu0;
        long wall = System.nanoTime() - t0;
        return new double[] {cpu / 1e3 / requests, wall / 1e3 / requests};
    }
}
