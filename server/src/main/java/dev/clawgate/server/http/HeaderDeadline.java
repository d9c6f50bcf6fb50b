package dev.clawgate.server.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SPEC OP-10, slow clients: a connection gets {@code gateway.read_timeout} to deliver a whole request head, from when
 * it opens and again after each response. One that sends nothing, or trickles its headers a byte at a time (which an
 * idle timeout never catches), is closed then. While a request is being handled its connection is never closed by this.
 */
final class HeaderDeadline implements Connection.Listener {
    private static final Logger log = LoggerFactory.getLogger(HeaderDeadline.class);

    private final Duration readTimeout;
    private final ScheduledExecutorService timer;
    private final Map<Connection, Watch> watches = new ConcurrentHashMap<>();

    HeaderDeadline(Duration readTimeout, ScheduledExecutorService timer) {
        this.readTimeout = readTimeout;
        this.timer = timer;
    }

    @Override
    public void onOpened(Connection connection) {
        // an HTTP/1 connection is its own metadata; the web chat socket an upgrade opens is not, and has no heads
        if (!(connection instanceof ConnectionMetaData)) return;
        Watch w = new Watch(connection);
        watches.put(connection, w);
        w.ended();
    }

    @Override
    public void onClosed(Connection connection) {
        Watch w = watches.remove(connection);
        if (w != null) w.forget();
    }

    /** A request head has arrived: no deadline until its response is done; the returned callback re-arms it. */
    Callback started(Request request, Callback callback) {
        Watch w = watches.get(request.getConnectionMetaData().getConnection());
        if (w == null) return callback;
        w.started();
        return new Callback.Nested(callback) {
            @Override
            public void succeeded() {
                try {
                    super.succeeded();
                } finally {
                    w.ended();
                }
            }

            @Override
            public void failed(Throwable x) {
                try {
                    super.failed(x);
                } finally {
                    w.ended();
                }
            }
        };
    }

    /** Connections watched now: for tests. */
    int watched() {
        return watches.size();
    }

    /** One connection: requests in progress, and the deadline armed while there are none. */
    private final class Watch {
        private final Connection connection;
        private final ReentrantLock lock = new ReentrantLock();
        private int active;
        private long generation;
        private ScheduledFuture<?> deadline;

        Watch(Connection connection) {
            this.connection = connection;
        }

        void started() {
            lock.lock();
            try {
                active++;
                generation++;
                cancel();
            } finally {
                lock.unlock();
            }
        }

        void ended() {
            lock.lock();
            try {
                if (active > 0) active--;
                if (active > 0) return;
                long armed = ++generation;
                cancel();
                deadline = timer.schedule(() -> expire(armed), readTimeout.toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                lock.unlock();
            }
        }

        void forget() {
            lock.lock();
            try {
                generation++;
                cancel();
            } finally {
                lock.unlock();
            }
        }

        private void cancel() {
            if (deadline != null) deadline.cancel(false);
            deadline = null;
        }

        private void expire(long armed) {
            lock.lock();
            try {
                if (active > 0 || armed != generation) return;
            } finally {
                lock.unlock();
            }
            // an upgraded connection (a web chat socket) is no longer this HTTP connection: leave it be
            if (connection.getEndPoint().getConnection() != connection) return;
            log.debug(
                    "closing a connection from {} that sent no whole request within {} ms",
                    connection.getEndPoint().getRemoteSocketAddress(),
                    readTimeout.toMillis());
            connection.getEndPoint().close();
        }
    }
}
