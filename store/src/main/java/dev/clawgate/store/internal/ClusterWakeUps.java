package dev.clawgate.store.internal;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One dedicated connection that LISTENs for the cluster's wake-ups (SPEC OP-2: a record handed to the node running its
 * session). When the connection drops, waits fall back to plain polling until it is opened again.
 */
public final class ClusterWakeUps implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClusterWakeUps.class);

    /** The NOTIFY channel; the payload names the node to wake. */
    static final String CHANNEL = "clawgate_cluster";

    /** The payload that wakes every node: a config reload to follow (at worst a node named "*" looks once more). */
    static final String EVERY_NODE = "*";

    private final String url;
    private final ReentrantLock lock = new ReentrantLock();
    private Connection connection;
    private volatile boolean closed;

    public ClusterWakeUps(String url) {
        this.url = url;
    }

    /** Starts listening now, so a wake-up sent before the first wait is not missed. */
    void listen() {
        lock.lock();
        try {
            connection();
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code max} for a wake-up of {@code node}; false on time-out (the caller polls anyway). */
    boolean await(String node, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        lock.lock();
        try {
            while (!closed) {
                long left = Duration.ofNanos(deadline - System.nanoTime()).toMillis();
                if (left <= 0) return false;
                Connection c = connection();
                if (c == null) {
                    Thread.sleep(left);
                    return false;
                }
                PGNotification[] got;
                try {
                    got = c.unwrap(PGConnection.class).getNotifications((int) left);
                } catch (SQLException e) {
                    log.warn("cluster: the LISTEN connection failed ({}); polling until it is back", e.getSQLState());
                    drop();
                    continue;
                }
                if (got == null) continue;
                for (PGNotification n : got) {
                    if (node.equals(n.getParameter()) || EVERY_NODE.equals(n.getParameter())) return true;
                }
            }
            return false;
        } finally {
            if (closed) drop();
            lock.unlock();
        }
    }

    private Connection connection() {
        if (connection != null) return connection;
        try {
            Connection c = DriverManager.getConnection(url);
            try (Statement s = c.createStatement()) {
                s.execute("LISTEN " + CHANNEL);
            }
            connection = c;
        } catch (SQLException e) {
            // the driver's message names host and port, never the password
            log.warn("cluster: cannot LISTEN ({}); polling instead", e.getSQLState());
        }
        return connection;
    }

    private void drop() {
        try {
            if (connection != null) connection.close();
        } catch (SQLException e) {
            log.debug("closing the LISTEN connection: {}", e.getSQLState());
        }
        connection = null;
    }

    @Override
    public void close() {
        closed = true;
        if (lock.tryLock()) {
            try {
                drop();
            } finally {
                lock.unlock();
            }
        }
    }
}
