package dev.clawgate.store.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.clawgate.core.store.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * One SQLite file in WAL mode. SQLite admits one writer at a time, so every write runs on a
 * single connection behind a fair {@link ReentrantLock} (waiting in the JVM is cheaper and
 * fairer than SQLite's busy-retry loop); reads use a small pool of query-only connections and
 * see the last committed state even while a write is in progress.
 */
public final class SqliteDatabase implements Database {

    static final int BUSY_TIMEOUT_MS = 5_000;
    private static final int READ_POOL_SIZE = 4;

    private final ReentrantLock writeLock = new ReentrantLock(true);
    private final Connection writer;
    private final Map<String, PreparedStatement> writerStatements = new HashMap<>();
    private final HikariDataSource readers;
    private volatile boolean closed;

    private SqliteDatabase(Connection writer, HikariDataSource readers) {
        this.writer = writer;
        this.readers = readers;
    }

    /** Opens (creating it and its folders if needed) the database file. */
    public static SqliteDatabase open(Path file) {
        Path absolute = file.toAbsolutePath();
        try {
            Path parent = absolute.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new StoreException("cannot create the folder for the SQLite store " + absolute.getParent(), e);
        }
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

    private static HikariDataSource readPool(String url) {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(BUSY_TIMEOUT_MS);
        config.enforceForeignKeys(true);
        SQLiteDataSource source = new SQLiteDataSource(config);
        source.setUrl(url);
        HikariConfig pool = new HikariConfig();
        pool.setDataSource(source);
        pool.setPoolName("clawgate-sqlite-read");
        pool.setMaximumPoolSize(READ_POOL_SIZE);
        pool.setMinimumIdle(1);
        // a read connection that tried to write would bypass the writer lock
        pool.setConnectionInitSql("PRAGMA query_only = true");
        try {
            return new HikariDataSource(pool);
        } catch (RuntimeException e) {
            throw new StoreException("cannot open the read connections of the SQLite store: " + e.getMessage(), e);
        }
    }

    @Override
    public <T> T write(String operation, Work<T> work) {
        writeLock.lock();
        try {
            if (closed) {
                throw Failures.closed(operation);
            }
            Tx tx = new Tx(writer, writerStatements);
            // IMMEDIATE takes the write lock up front, so another process cannot make us fail half-way
            tx.update("BEGIN IMMEDIATE");
            T result;
            try {
                result = work.run(tx);
                tx.update("COMMIT");
            } catch (Throwable t) {
                Failures.cleanUp(() -> tx.update("ROLLBACK"), t);
                throw t;
            }
            return result;
        } catch (SQLException e) {
            throw Failures.of(operation, e);
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public <T> T read(String operation, Work<T> work) {
        if (closed) {
            throw Failures.closed(operation);
        }
        try (Connection connection = readers.getConnection()) {
            return work.run(new Tx(connection, null));
        } catch (SQLException e) {
            throw Failures.of(operation, e);
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
