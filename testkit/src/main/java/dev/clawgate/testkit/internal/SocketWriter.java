package dev.clawgate.testkit.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * The server side of one WebSocket as a fake platform writes it: frames go out one at a time in the order they were
 * queued (a sequence number given under a lock is sent in that order), from a virtual thread, so nobody queuing a frame
 * ever blocks on a slow client.
 */
public final class SocketWriter {
    private static final int MAX_QUEUED = 10_000;
    private static final long SEND_TIMEOUT_SECONDS = 10;

    private sealed interface Out permits Text, Binary, Close, Drop {}

    private record Text(String frame) implements Out {}

    private record Binary(byte[] frame) implements Out {}

    private record Close(int code, String reason) implements Out {}

    private record Drop() implements Out {}

    private final Session session;
    private final LinkedBlockingQueue<Out> queue = new LinkedBlockingQueue<>(MAX_QUEUED);
    private volatile boolean finished;

    private SocketWriter(Session session) {
        this.session = session;
    }

    /** Starts writing to {@code session}. */
    public static SocketWriter start(Session session, String name) {
        SocketWriter w = new SocketWriter(session);
        Thread.ofVirtual().name(name).start(w::run);
        return w;
    }

    /** Queues a text frame; false when the socket is already finished or the queue is full. */
    public boolean send(String frame) {
        return !finished && queue.offer(new Text(frame));
    }

    /** Queues a binary frame; false when the socket is already finished or the queue is full. */
    public boolean sendBinary(byte[] frame) {
        return !finished && queue.offer(new Binary(frame));
    }

    /** Queues a close frame with {@code code} after the frames already queued. */
    public void close(int code, String reason) {
        if (!finished) queue.offer(new Close(code, reason));
    }

    /** Drops the TCP connection after the frames already queued, without a close frame (the client sees 1006). */
    public void drop() {
        if (!finished) queue.offer(new Drop());
    }

    public boolean isOpen() {
        return !finished && session.isOpen();
    }

    private void run() {
        try {
            while (!finished) {
                Out out = queue.take();
                switch (out) {
                    case Text t -> write(t.frame());
                    case Binary b -> write(b.frame());
                    case Close c -> {
                        finished = true;
                        session.close(c.code(), c.reason(), Callback.NOOP);
                    }
                    case Drop d -> {
                        finished = true;
                        session.disconnect();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            finished = true;
        }
    }

    private void write(Object frame) throws InterruptedException {
        if (!session.isOpen()) {
            finished = true;
            return;
        }
        Callback.Completable sent = new Callback.Completable();
        if (frame instanceof byte[] bytes) session.sendBinary(java.nio.ByteBuffer.wrap(bytes), sent);
        else session.sendText((String) frame, sent);
        try {
            sent.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // the client is gone or stuck: this socket is over, as on the real platform
            finished = true;
            session.disconnect();
        }
    }
}
