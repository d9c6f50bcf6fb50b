package dev.clawgate.store.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.clawgate.core.store.StoreException;
import java.sql.Connection;
import java.sql.SQLException;

/** PostgreSQL through a HikariCP pool: every connection may write; the database orders the writers. */
public final class PooledDatabase implements Database {

    private static final int POOL_SIZE = 10;

    private final HikariDataSource pool;
    private volatile boolean closed;

    private PooledDatabase(HikariDataSource pool) {
        this.pool = pool;
    }

    /** Connects to {@code jdbcUrl}; user and password, if any, travel in the URL's parameters. */
    public static PooledDatabase open(String jdbcUrl) {
        return open(jdbcUrl, POOL_SIZE, 10_000, "clawgate-postgresql");
    }

    /**
     * Connects with {@code poolSize} connections at most, waiting up to {@code connectTimeoutMs} for one (SPEC OP-2:
     * {@code store.pool_size}, {@code store.connect_timeout}).
     */
    public static PooledDatabase open(String jdbcUrl, int poolSize, long connectTimeoutMs, String poolName) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName(poolName);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(2, poolSize));
        config.setConnectionTimeout(Math.max(250, connectTimeoutMs));
        try {
            return new PooledDatabase(new HikariDataSource(config));
        } catch (RuntimeException e) {
            // the cause's message is the driver's (host, port, user) and never contains the password
            Throwable reason = e.getCause() == null ? e : e.getCause();
            throw new StoreException("cannot open the PostgreSQL store: " + reason.getMessage(), e);
        }
    }

    @Override
    public <T> T write(String operation, Work<T> work) {
        if (closed) {
            throw Failures.closed(operation);
        }
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(new Tx(connection, null));
                connection.commit();
                return result;
            } catch (Throwable t) {
                Failures.cleanUp(connection::rollback, t);
                throw t;
            }
        } catch (SQLException e) {
            throw Failures.of(operation, e);
        }
    }

    @Override
    public <T> T read(String operation, Work<T> work) {
        if (closed) {
            throw Failures.closed(operation);
        }
        try (Connection connection = pool.getConnection()) {
            return work.run(new Tx(connection, null));
        } catch (SQLException e) {
            throw Failures.of(operation, e);
        }
    }

    @Override
    public Dialect dialect() {
        return Dialect.POSTGRESQL;
    }

    @Override
    public void close() {
        closed = true;
        pool.close();
    }
}
