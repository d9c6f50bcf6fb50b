package dev.clawgate.provider.internal;

import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.run.Scheduler;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP exchange in flight, abortable (SPEC AG-2): when the run's token fires, the pending future is cancelled and
 * the body stream closed, so the server sees the connection go. A body that stays silent longer than the timeout is
 * closed the same way.
 */
public final class Exchange implements AutoCloseable {
    /** How a provider words the failures of the exchange itself (its name in front, secrets out). */
    public interface Failures {
        /** No status line, or a body silent for longer than {@code after}. */
        ProviderException timeout(Duration after);

        /** The network failed while sending or reading. */
        ProviderException transport(String what, IOException e);
    }

    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);
    // SPEC OP-7: the idle watch is cancelled when the exchange closes, so a finished exchange is not kept for the whole
    // timeout
    private static final ScheduledExecutorService WATCHDOG = Scheduler.daemonTimer("clawgate-provider-watchdog");

    private final CancelToken cancel;
    private final Duration timeout;
    private final Failures errors;
    private final CompletableFuture<HttpResponse<InputStream>> future;
    private final AutoCloseable registration;
    private volatile InputStream body;
    private volatile boolean closed;
    private volatile boolean timedOut;
    private volatile long lastActivity = System.nanoTime();
    private volatile ScheduledFuture<?> watching;

    private Exchange(HttpClient client, HttpRequest request, CancelToken cancel, Duration timeout, Failures errors) {
        this.cancel = cancel;
        this.timeout = timeout;
        this.errors = errors;
        this.future = client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
        this.registration = cancel.onCancel(this::abort);
    }

    /** Sends the request unless the run is already cancelled. */
    public static Exchange start(
            HttpClient client, HttpRequest request, CancelToken cancel, Duration timeout, Failures errors) {
        cancel.throwIfCancelled();
        return new Exchange(client, request, cancel, timeout, errors);
    }

    /** Waits for the status line and headers; the body is then read from {@link #body()}. */
    public HttpResponse<InputStream> awaitResponse() throws ProviderException {
        HttpResponse<InputStream> response;
        try {
            response = future.get();
        } catch (CancellationException e) {
            throw new CancelledException(cancelReason());
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new CancelledException("interrupted");
        } catch (ExecutionException e) {
            cancel.throwIfCancelled();
            Throwable cause = e.getCause();
            if (cause instanceof HttpTimeoutException) throw errors.timeout(timeout);
            if (cause instanceof IOException io) throw errors.transport("request failed", io);
            throw errors.transport("request failed", new IOException(cause));
        }
        body = new ActivityStream(response.body());
        if (cancel.isCancelled() || closed) {
            closeBody();
            throw new CancelledException(cancelReason());
        }
        watch(timeout.toNanos());
        return response;
    }

    public InputStream body() {
        return body;
    }

    /** Reads a whole (bounded) body, mapping a broken or aborted read. */
    public byte[] readAll(int limit) throws ProviderException {
        try {
            byte[] bytes = body.readNBytes(limit);
            throwIfAborted();
            return bytes;
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    /** The exception for a read that failed: cancellation, our idle timeout, or the network. */
    public ProviderException readFailure(IOException e) {
        cancel.throwIfCancelled();
        if (Thread.currentThread().isInterrupted()) {
            abort();
            throw new CancelledException("interrupted");
        }
        if (timedOut) return errors.timeout(timeout);
        return errors.transport("the answer was cut off", e);
    }

    /** After an early end of the body: throws if we closed it ourselves (cancel or timeout). */
    public void throwIfAborted() throws ProviderException {
        cancel.throwIfCancelled();
        if (timedOut) throw errors.timeout(timeout);
    }

    @Override
    public void close() {
        closed = true;
        ScheduledFuture<?> w = watching;
        if (w != null) w.cancel(false);
        try {
            registration.close();
        } catch (Exception e) {
            LOG.debug("removing the cancel listener failed: {}", e.toString());
        }
        closeBody();
    }

    private void abort() {
        future.cancel(true);
        closeBody();
    }

    private void closeBody() {
        InputStream in = body;
        if (in == null) return;
        try {
            in.close();
        } catch (IOException e) {
            LOG.debug("closing the response body failed: {}", e.toString());
        }
    }

    private String cancelReason() {
        String r = cancel.reason();
        return r == null ? "cancelled" : r;
    }

    // checks for silence at the moment the timeout could first have run out, then re-arms
    private void watch(long delayNanos) {
        if (closed) return;
        watching = WATCHDOG.schedule(
                () -> {
                    if (closed) return;
                    long idle = System.nanoTime() - lastActivity;
                    if (idle >= timeout.toNanos()) {
                        timedOut = true;
                        closeBody();
                    } else {
                        watch(timeout.toNanos() - idle);
                    }
                },
                Math.max(delayNanos, 1),
                TimeUnit.NANOSECONDS);
        if (closed) watching.cancel(false);
    }

    private final class ActivityStream extends FilterInputStream {
        ActivityStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            lastActivity = System.nanoTime();
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            lastActivity = System.nanoTime();
            return n;
        }
    }
}
