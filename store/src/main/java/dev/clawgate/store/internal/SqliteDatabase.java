package dev.clawgate.store.internal;

import dev.clawgate.core.store.StoreException;
import dev.clawgate.store.PrivateFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;

/**
 * One SQLite file in WAL mode. SQLite admits one writer at a time, so every write runs on a single connection behind a
 * fair {@link ReentrantLock} (waiting in the JVM is cheaper and fairer than SQLite's busy-retry loop), and writes that
 * queue up meanwhile share one commit (group commit); reads use a small pool of query-only connections and see the last
 * committed state even while a write is in progress. Both sides keep their prepared statements.
 */
public final class SqliteDatabase implements Database {

    static final int BUSY_TIMEOUT_MS = 5_000;
    private static final int READ_POOL_SIZE = 4;

    /** The most writes one group commit takes: bounds how long the first waiter waits for the others. */
    static final int MAX_BATCH = 64;

    private final ReentrantLock writeLock = new ReentrantLock(true);
    private final ConcurrentLinkedQueue<PendingWrite<?>> queue = new ConcurrentLinkedQueue<>();
    private final Connection writer;
    private final Map<String, PreparedStatement> writerStatements = new HashMap<>();
    private final SqliteReaders readers;
    private volatile boolean closed;

    private SqliteDatabase(Connection writer, SqliteReaders readers) {
        this.writer = writer;
        this.readers = readers;
    }

    /** Opens (creating it and its folders if needed) the database file. */
    public static SqliteDatabase open(Path file) {
        Path absolute = file.toAbsolutePath();
        try {
            Path parent = absolute.getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                PrivateFiles.directory(parent);
            }
        } catch (StoreException e) {
            throw new StoreException("cannot create the folder for the SQLite store " + absolute.getParent(), e);
        }
        // SPEC OP-6: 0600 before SQLite opens it, so the WAL and shared-memory files it makes take that mode
        PrivateFiles.sqliteFiles(absolute);
        String url = "jdbc:sqlite:" + absolute;
        Connection writer;
        try {
            writer = writerConfig().createConnection(url);
        } catch (SQLException e) {
            throw Failures.of("open SQLite store " + absolute, e);
        }
        try {
            return new SqliteDatabase(writer, readPool(url));
        } catch (RuntimeException e) {
            Failures.cleanUp(writer::close, e);
            throw e;
        }
    }

    private static SQLiteConfig writerConfig() {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // NORMAL in WAL mode: a commit survives a process crash (kill -9); only a power cut may lose the last ones
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(BUSY_TIMEOUT_MS);
        config.enforceForeignKeys(true);
        return config;
    }

    private static SqliteReaders readPool(String url) {
        try {
            return new SqliteReaders(url, READ_POOL_SIZE).start();
        } catch (SQLException e) {
            throw new StoreException("cannot open the read connections of the SQLite store: " + e.getMessage(), e);
        }
    }

    /**
     * Group commit: a write joins the queue, and whoever holds the writer next runs everything queued (up to
     * {@link #MAX_BATCH}) in one transaction, each work in its own savepoint, so one work's failure rolls back only
     * that work. Every caller returns only after the transaction holding its work committed, exactly as with one
     * transaction per write.
     */
    @Override
    public <T> T write(String operation, Work<T> work) {
        PendingWrite<T> mine = new PendingWrite<>(operation, work);
        queue.add(mine);
        writeLock.lock();
        try {
            while (!mine.done) runBatch();
        } finally {
            writeLock.unlock();
        }
        return mine.outcome();
    }

    /** Runs the queued writes in one transaction; called with the write lock held. */
    private void runBatch() {
        List<PendingWrite<?>> batch = new ArrayList<>();
        for (PendingWrite<?> p = queue.poll(); p != null; p = batch.size() < MAX_BATCH ? queue.poll() : null)
            batch.add(p);
        if (batch.isEmpty()) return;
        if (closed) {
            for (PendingWrite<?> p : batch) p.fail(Failures.closed(p.operation));
            return;
        }
        Tx tx = new Tx(writer, writerStatements);
        try {
            // IMMEDIATE takes the write lock up front, so another process cannot make us fail half-way
            tx.update("BEGIN IMMEDIATE");
        } catch (SQLException e) {
            for (PendingWrite<?> p : batch) p.fail(e);
            return;
        }
        boolean alone = batch.size() == 1;
        for (PendingWrite<?> p : batch) {
            if (alone) {
                p.runIn(tx);
            } else {
                p.runInSavepoint(tx);
            }
        }
        if (alone && batch.get(0).failure != null) {
            Failures.cleanUp(() -> tx.update("ROLLBACK"), batch.get(0).failure);
            batch.get(0).done = true;
            return;
        }
        try {
            tx.update("COMMIT");
        } catch (SQLException e) {
            Failures.cleanUp(() -> tx.update("ROLLBACK"), e);
            for (PendingWrite<?> p : batch) {
                if (p.failure == null) p.failure = e;
            }
        }
        for (PendingWrite<?> p : batch) p.done = true;
    }

    /** One caller's write, waiting for the transaction that runs it. */
    private static final class PendingWrite<T> {
        final String operation;
        final Work<T> work;
        volatile boolean done;
        T result;
        Throwable failure;

        PendingWrite(String operation, Work<T> work) {
            this.operation = operation;
            this.work = work;
        }

        void runIn(Tx tx) {
            try {
                result = work.run(tx);
            } catch (Throwable t) {
                failure = t;
            }
        }

        void runInSavepoint(Tx tx) {
            try {
                tx.update("SAVEPOINT w");
            } catch (SQLException e) {
                failure = e;
                return;
            }
            try {
                result = work.run(tx);
                tx.update("RELEASE w");
            } catch (Throwable t) {
                failure = t;
                Failures.cleanUp(
                        () -> {
                            tx.update("ROLLBACK TO w");
                            tx.update("RELEASE w");
                        },
                        t);
            }
        }

        void fail(Throwable t) {
            failure = t;
            done = true;
        }

        T outcome() {
            Throwable t = failure;
            if (t == null) return result;
            if (t instanceof SQLException e) throw Failures.of(operation, e);
            if (t instanceof RuntimeException e) throw e;
            if (t instanceof Error e) throw e;
            throw new IllegalStateException(operation + " failed", t);
        }
    }

    @Override
    public <T> T read(String operation, Work<T> work) {
        if (closed) {
            throw Failures.closed(operation);
        }
        SqliteReaders.Reader reader;
        try {
            reader = readers.acquire();
        } catch (SQLException e) {
            throw Failures.of(operation, e);
        }
        try {
            return work.run(new Tx(reader.connection(), reader.statements()));
        } catch (SQLException e) {
            throw Failures.of(operation, e);
        } finally {
            readers.release(reader);
        }
    }

    @Override
    public Dialect dialect() {
        return Dialect.SQLITE;
    }

    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            readers.close();
            SQLException failure = null;
            for (PreparedStatement ps : writerStatements.values()) {
                try {
                    ps.close();
                } catch (SQLException e) {
                    failure = e;
                }
            }
            writerStatements.clear();
            try {
                writer.close();
            } catch (SQLException e) {
                failure = e;
            }
            if (failure != null) {
                throw Failures.of("close", failure);
            }
        } finally {
            writeLock.unlock();
        }
    }
}
