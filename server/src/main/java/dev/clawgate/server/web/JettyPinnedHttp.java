package dev.clawgate.server.web;

import dev.clawgate.core.internal.multimodal.PinnedHttp;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.client.Destination;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * {@link PinnedHttp} on Jetty's HTTP client (SPEC AG-4, AG-5): each request carries the checked addresses as its tag,
 * and the client's address resolver answers with exactly those, never asking DNS itself, so the TCP connection goes to
 * an address that was checked. Everything else is the URL's: the {@code Host} header, the TLS server name (SNI) and the
 * certificate's host name check. A tag is part of Jetty's destination key, so a pooled connection is only ever reused
 * for the same checked addresses. Redirects are not followed. The client starts on first use.
 */
public final class JettyPinnedHttp implements PinnedHttp, AutoCloseable {
    private static final int MAX_RESPONSE_HEADER_BYTES = 32 * 1024;

    /** The checked addresses of one request, as its tag. */
    private record Pin(List<InetAddress> addresses) {}

    private final HttpClient client;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean started;
    private boolean closed;

    /** With the JDK's trusted certificates and a 5 s connect timeout. */
    public JettyPinnedHttp() {
        this(new SslContextFactory.Client(), Duration.ofSeconds(5));
    }

    /** @param tls the certificates trusted (a test trusts its own); host names are always checked */
    public JettyPinnedHttp(SslContextFactory.Client tls, Duration connectTimeout) {
        tls.setEndpointIdentificationAlgorithm("HTTPS");
        QueuedThreadPool threads = new QueuedThreadPool(16, 1);
        threads.setName("clawgate-fetch");
        threads.setDaemon(true);
        ClientConnector connector = new ClientConnector();
        connector.setSslContextFactory(tls);
        connector.setExecutor(threads);
        connector.setConnectTimeout(connectTimeout);
        client = new HttpClient(new HttpClientTransportOverHTTP(connector));
        client.setExecutor(threads);
        client.setFollowRedirects(false);
        client.setSocketAddressResolver(JettyPinnedHttp::pinned);
        client.setConnectTimeout(connectTimeout.toMillis());
        client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "clawgate"));
        client.setMaxResponseHeadersSize(MAX_RESPONSE_HEADER_BYTES);
        client.setDestinationIdleTimeout(60_000);
    }

    /**
     * Jetty's resolver: the request's pinned addresses, or a failure; DNS is never asked here. Each address carries the
     * URL's host as its name (no lookup is made for that), which TLS uses for the server name and the certificate
     * check.
     */
    private static void pinned(
            String host, int port, Map<String, Object> context, Promise<List<InetSocketAddress>> promise) {
        Object destination = context == null ? null : context.get(Destination.CONTEXT_KEY);
        if (destination instanceof Destination d
                && d.getOrigin().getTag() instanceof Pin pin
                && !pin.addresses().isEmpty()) {
            try {
                List<InetSocketAddress> named = new ArrayList<>();
                for (InetAddress a : pin.addresses()) {
                    named.add(new InetSocketAddress(InetAddress.getByAddress(host, a.getAddress()), port));
                }
                promise.succeeded(named);
            } catch (UnknownHostException e) {
                promise.failed(e);
            }
        } else {
            promise.failed(new UnknownHostException(host + ": no checked address was given for this connection"));
        }
    }

    @Override
    public Response get(URI url, List<InetAddress> addresses, Duration timeout, long maxBytes, CancelToken cancel)
            throws IOException, InterruptedException {
        start();
        Request request = client.newRequest(url)
                .method(HttpMethod.GET)
                .tag(new Pin(List.copyOf(addresses)))
                .followRedirects(false)
                .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        InputStreamResponseListener listener = new InputStreamResponseListener();
        AutoCloseable abortOnCancel = cancel.onCancel(() -> request.abort(new IOException("cancelled")));
        try {
            request.send(listener);
            org.eclipse.jetty.client.Response response = listener.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            try (InputStream in = listener.getInputStream()) {
                byte[] body = in.readNBytes((int) Math.min(maxBytes, Integer.MAX_VALUE - 8));
                boolean cut = in.read() != -1;
                if (cut) request.abort(new IOException("the body is longer than " + maxBytes + " bytes"));
                String type = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
                return new Response(
                        response.getStatus(),
                        response.getHeaders().get(HttpHeader.LOCATION),
                        type == null ? "" : type,
                        body,
                        cut);
            }
        } catch (TimeoutException e) {
            request.abort(e);
            throw new IOException("no answer from " + url.getHost() + " within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IOException(
                    url.getHost() + ": "
                            + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()),
                    cause);
        } finally {
            close(abortOnCancel);
            cancel.throwIfCancelled();
        }
    }

    private static void close(AutoCloseable listener) {
        try {
            listener.close();
        } catch (Exception e) {
            throw new IllegalStateException("cancel listener could not be removed", e);
        }
    }

    private void start() throws IOException {
        lock.lock();
        try {
            if (closed) throw new IOException("the HTTP client is closed");
            if (started) return;
            client.start();
            started = true;
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("the HTTP client could not start: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            if (started) client.stop();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP client could not stop", e);
        } finally {
            lock.unlock();
        }
    }
}
