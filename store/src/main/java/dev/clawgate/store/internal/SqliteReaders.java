package dev.clawgate.store.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * The read side of a SQLite store: at most {@code size} query-only connections, opened when first needed, each keeping
 * its prepared statements (up to {@link #STATEMENTS}, least recently used closed first) as the writer does. Preparing
 * every read anew cost a tenth of the gateway's CPU under load, most of it on the memory recall's full-text statements
 * (bench/RESULTS.md).
 */
final class SqliteReaders implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SqliteReaders.class);
    static final int STATEMENTS = 128;
    private static final long WAIT_SECONDS = 30;

    private final String url;
    private final int size;
    private final ArrayBlockingQueue<Reader> idle;
    private final ReentrantLock lock = new ReentrantLock();
    private int opened;
    private volatile boolean closed;

    /** One connection and the statements prepared on it; used by one caller at a time. */
    record Reader(Connection connection, Map<String, PreparedStatement> statements) {}

    SqliteReaders(String url, int size) {
        this.url = url;
        this.size = size;
        this.idle = new ArrayBlockingQueue<>(size);
    }

    /** Opens the first connection now, so a file that cannot be read fails at open, not at the first read. */
    SqliteReaders start() throws SQLException {
        release(acquire());
        return this;
    }

    /** A free connection: an idle one, a new one while fewer than {@code size} are open, else the next returned. */
    Reader acquire() throws SQLException {
        Reader r = idle.poll();
        if (r != null) return r;
        lock.lock();
        try {
            if (opened < size) {
                Reader fresh = open();
                opened++;
                return fresh;
            }
        } finally {
            lock.unlock();
        }
        try {
            r = idle.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for a read connection", e);
        }
        if (r == null) throw new SQLTimeoutException("no read connection was free within " + WAIT_SECONDS + " s");
        return r;
    }

    /** Gives a connection back; after {@link #close} it is closed instead. */
    void release(Reader r) {
        if (closed || !idle.offer(r)) {
            discard(r);
            return;
        }
        // close() may have drained the queue just before this offer: do not leave the connection open
        if (closed && idle.remove(r)) discard(r);
    }

    @Override
    public void close() {
        closed = true;
        for (Reader r = idle.poll(); r != null; r = idle.poll()) discard(r);
    }

    private Reader open() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(SqliteDatabase.BUSY_TIMEOUT_MS);
        config.enforceForeignKeys(true);
        Connection c = config.createConnection(url);
        try (Statement st = c.createStatement()) {
            // a read connection that tried to write would bypass the writer lock
            st.execute("PRAGMA query_only = true");
        } catch (SQLException e) {
            Failures.cleanUp(c::close, e);
            throw e;
        }
        return new Reader(c, new StatementCache());
    }

    private static void discard(Reader r) {
        for (PreparedStatement ps : r.statements().values()) close(ps);
        r.statements().clear();
        try {
            r.connection().close();
        } catch (SQLException e) {
            LOG.warn("closing a SQLite read connection failed: {}", e.getMessage());
        }
    }

    private static void close(PreparedStatement ps) {
        try {
            ps.close();
        } catch (SQLException e) {
            LOG.warn("closing a cached SQLite statement failed: {}", e.getMessage());
        }
    }

    /** Least recently used statements go first, closed as they go. */
    private static final class StatementCache extends LinkedHashMap<String, PreparedStatement> {
        StatementCache() {
            super(32, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= STATEMENTS) return false;
            close(eldest.getValue());
            return true;
        }
    }
}
