package dev.clawgate.server.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SPEC OP-10, before any route runs: a request body over {@code gateway.max_body_bytes} is answered at once from its
 * declared length, without reading it (or as soon as a body of unknown length passes the limit); a body must arrive in
 * full within {@code gateway.read_timeout}, read without holding a thread, or the request is answered 408 and its
 * connection closed. The routes then read the body from memory and never wait on a slow client.
 */
final class BodyGate extends Handler.Wrapper {
    private static final Logger log = LoggerFactory.getLogger(BodyGate.class);

    /** Answers a request whose body is over the limit; its body is not (or no longer) read. */
    @FunctionalInterface
    interface TooLarge {
        Answer answer(Request request, long limitBytes);
    }

    /** A whole response. */
    record Answer(int status, String contentType, byte[] body) {}

    private final long maxBytes;
    private final Duration readTimeout;
    private final TooLarge tooLarge;
    private final HeaderDeadline headers;
    private final ScheduledExecutorService timer;

    BodyGate(
            long maxBytes,
            Duration readTimeout,
            TooLarge tooLarge,
            HeaderDeadline headers,
            ScheduledExecutorService timer) {
        this.maxBytes = maxBytes;
        this.readTimeout = readTimeout;
        this.tooLarge = tooLarge;
        this.headers = headers;
        this.timer = timer;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Callback done = headers.started(request, callback);
        long declared = request.getLength();
        boolean chunked = declared < 0
                && request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING, HttpHeaderValue.CHUNKED.asString());
        if (declared <= 0 && !chunked) return next(request, response, done);
        if (declared > maxBytes) {
            write(response, done, tooLarge.answer(request, maxBytes));
            return true;
        }
        new Loader(request, response, done).start();
        return true;
    }

    private boolean next(Request request, Response response, Callback callback) throws Exception {
        Handler next = getHandler();
        return next != null && next.handle(request, response, callback);
    }

    /** Writes a whole answer and closes the connection: what is left of the body is not worth reading. */
    private static void write(Response response, Callback callback, Answer a) {
        response.setStatus(a.status());
        if (a.contentType() != null) response.getHeaders().put(HttpHeader.CONTENT_TYPE, a.contentType());
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        response.write(true, ByteBuffer.wrap(a.body() == null ? new byte[0] : a.body()), callback);
    }

    static Answer json(int status, String type, String message) {
        return new Answer(
                status, "application/json", ErrorBody.of(message, type).getBytes(StandardCharsets.UTF_8));
    }

    /** Reads one body into memory as it arrives (a demand callback per chunk), then hands the request on. */
    private final class Loader implements Runnable {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private final ByteArrayOutputStream body;
        private final AtomicBoolean settled = new AtomicBoolean();
        private ScheduledFuture<?> deadline;

        Loader(Request request, Response response, Callback callback) {
            this.request = request;
            this.response = response;
            this.callback = callback;
            long declared = request.getLength();
            // grows as bytes come, so a declared length costs nothing until it is sent
            this.body = new ByteArrayOutputStream((int) Math.min(declared > 0 ? declared : 8192, 64 * 1024));
        }

        void start() {
            deadline = timer.schedule(this::timedOut, readTimeout.toMillis(), TimeUnit.MILLISECONDS);
            run();
        }

        /** Also the demand callback: Jetty runs it on a pool thread when more of the body arrived. */
        @Override
        public void run() {
            while (!settled.get()) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    request.demand(this);
                    return;
                }
                try {
                    if (Content.Chunk.isFailure(chunk)) {
                        if (settle()) callback.failed(chunk.getFailure());
                        return;
                    }
                    ByteBuffer bytes = chunk.getByteBuffer();
                    if (body.size() + (long) bytes.remaining() > maxBytes) {
                        if (settle()) write(response, callback, tooLarge.answer(request, maxBytes));
                        return;
                    }
                    byte[] copy = new byte[bytes.remaining()];
                    bytes.get(copy);
                    body.write(copy, 0, copy.length);
                    if (chunk.isLast()) {
                        if (settle()) handOn();
                        return;
                    }
                } finally {
                    chunk.release();
                }
            }
        }

        private boolean settle() {
            if (!settled.compareAndSet(false, true)) return false;
            deadline.cancel(false);
            return true;
        }

        private void timedOut() {
            if (!settle()) return;
            log.debug(
                    "{} {} from {}: body not received within {} ms",
                    request.getMethod(),
                    request.getHttpURI().getPath(),
                    Request.getRemoteAddr(request),
                    readTimeout.toMillis());
            write(
                    response,
                    callback,
                    json(
                            HttpStatus.REQUEST_TIMEOUT_408,
                            "timeout",
                            "the request body did not arrive within " + readTimeout.toMillis()
                                    + " ms (gateway.read_timeout)"));
        }

        private void handOn() {
            Request buffered = new Buffered(request, body.toByteArray());
            try {
                if (!next(buffered, response, callback)) {
                    Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
                }
            } catch (Throwable t) {
                Response.writeError(request, response, callback, t);
            }
        }
    }

    /** The request with its body already in memory. */
    private static final class Buffered extends Request.Wrapper {
        private final Content.Source body;

        Buffered(Request request, byte[] bytes) {
            super(request);
            this.body = Content.Source.from(ByteBuffer.wrap(bytes));
        }

        @Override
        public Content.Chunk read() {
            return body.read();
        }

        @Override
        public void demand(Runnable demandCallback) {
            body.demand(demandCallback);
        }

        @Override
        public void fail(Throwable failure) {
            body.fail(failure);
        }
    }
}
