package dev.clawgate.core.run;

import java.net.http.HttpClient;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The JDK HTTP client as the gateway's model and platform clients are made: its asynchronous work (reading responses,
 * completing exchanges) runs on virtual threads instead of the client's default pool of platform threads. Measured by
 * {@code bench}'s {@code HttpClientCost} (bench/RESULTS.md, issue 27): the same keep-alive exchange costs about half
 * the CPU per request (120-152 µs against 239-277 µs, server included), since no platform thread is woken for each step
 * of each exchange. Connections are pooled and kept alive per client as before.
 */
public final class HttpClients {
    private static final Executor VIRTUAL = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("http-client-", 0).factory());

    private HttpClients() {}

    /** A client builder on the shared virtual-thread executor; the caller sets timeouts, version and redirects. */
    public static HttpClient.Builder builder() {
        return HttpClient.newBuilder().executor(VIRTUAL);
    }
}
