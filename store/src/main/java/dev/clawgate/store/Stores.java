package dev.clawgate.store;

import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.internal.ClusterWakeUps;
import dev.clawgate.store.internal.Database;
import dev.clawgate.store.internal.JdbcCluster;
import dev.clawgate.store.internal.JdbcStore;
import dev.clawgate.store.internal.Migrations;
import dev.clawgate.store.internal.PooledDatabase;
import dev.clawgate.store.internal.SqliteDatabase;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Opens the {@link Store}: SQLite by default (SPEC OP-1), PostgreSQL for cluster mode (SPEC OP-2). Opening applies any
 * pending schema migrations and refuses a database whose schema is newer than this code.
 */
public final class Stores {

    /** The SQLite file under the data directory when no URL is configured. */
    public static final String DEFAULT_FILE_NAME = "clawgate.db";

    private static final String SQLITE_PREFIX = "jdbc:sqlite:";
    private static final String POSTGRESQL_PREFIX = "jdbc:postgresql:";

    private Stores() {}

    /**
     * Opens the store that {@code store.url} names.
     *
     * @param url null or blank: the SQLite file {@code <dataDir>/clawgate.db}; {@code jdbc:sqlite:<path>}: that SQLite
     *     file, a relative path taken under {@code dataDir}; {@code jdbc:postgresql:...}: that PostgreSQL database
     *     (user and password as URL parameters)
     * @param dataDir {@code gateway.data_dir}; created if missing; may be null only for PostgreSQL
     * @throws IllegalArgumentException for a URL of another database or an in-memory SQLite URL
     * @throws dev.clawgate.core.store.StoreException when the database cannot be opened or migrated
     */
    public static Store open(String url, Path dataDir) {
        return open(url, dataDir, Clock.systemUTC());
    }

    /** {@link #open(String, Path)} with the clock that stamps records and ages dedupe keys. */
    public static Store open(String url, Path dataDir, Clock clock) {
        // SPEC OP-6: the data dir is private to the gateway's user, whatever store it holds
        if (dataDir != null) PrivateFiles.directory(dataDir);
        if (url == null || url.isBlank()) {
            Objects.requireNonNull(dataDir, "dataDir is needed for the default SQLite store");
            return openSqlite(dataDir.resolve(DEFAULT_FILE_NAME), clock);
        }
        String trimmed = url.strip();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (lower.startsWith(SQLITE_PREFIX)) {
            Path file = sqliteFile(trimmed.substring(SQLITE_PREFIX.length()));
            if (!file.isAbsolute()) {
                Objects.requireNonNull(dataDir, "dataDir is needed for a relative SQLite path");
                file = dataDir.resolve(file);
            }
            return openSqlite(file, clock);
        }
        if (lower.startsWith(POSTGRESQL_PREFIX)) {
            return migrated(PooledDatabase.open(trimmed), clock);
        }
        // name only the scheme: the rest of a URL may hold a password
        int schemeEnd = trimmed.indexOf(':', trimmed.indexOf(':') + 1);
        String scheme = schemeEnd < 0 ? "?" : trimmed.substring(0, schemeEnd + 1);
        throw new IllegalArgumentException("store.url must start with " + SQLITE_PREFIX + " or " + POSTGRESQL_PREFIX
                + ", got a URL starting with '" + scheme + "'");
    }

    /**
     * Opens the PostgreSQL store of a cluster node (SPEC OP-2) with {@code poolSize} connections at most, each waited
     * for up to {@code connectTimeout}; {@code nodeId} is recorded on the outbox entries this node claims, and a node
     * the cluster declared dead claims none.
     */
    public static Store openPostgres(String url, int poolSize, Duration connectTimeout, String nodeId) {
        if (!url.strip().toLowerCase(Locale.ROOT).startsWith(POSTGRESQL_PREFIX))
            throw new IllegalArgumentException("cluster mode needs a " + POSTGRESQL_PREFIX + " store.url");
        Database db = PooledDatabase.open(url.strip(), poolSize, connectTimeout.toMillis(), "clawgate-postgresql");
        try {
            Migrations.schema().apply(db);
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return new JdbcStore(db, Clock.systemUTC(), nodeId);
    }

    /**
     * The cluster's coordination (SPEC OP-2) on the same PostgreSQL database as {@link #openPostgres}, opened after it
     * (the schema is migrated): its own four connections and one that LISTENs.
     */
    public static ClusterBook openCluster(String url, String nodeId, Duration leaseTtl, Duration connectTimeout) {
        Database db = PooledDatabase.open(url.strip(), 4, connectTimeout.toMillis(), "clawgate-cluster");
        return new JdbcCluster(db, nodeId, leaseTtl, new ClusterWakeUps(url.strip()));
    }

    /** The schema version this code writes (both dialects). */
    public static int schemaVersion() {
        return Migrations.schema().latestVersion();
    }

    /** Opens (creating it and its folders if needed) the SQLite store in {@code file}. */
    public static Store openSqlite(Path file) {
        return openSqlite(file, Clock.systemUTC());
    }

    /** {@link #openSqlite(Path)} with the clock that stamps records and ages dedupe keys. */
    public static Store openSqlite(Path file, Clock clock) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(clock, "clock");
        return migrated(SqliteDatabase.open(file), clock);
    }

    private static Store migrated(Database db, Clock clock) {
        try {
            Migrations.schema().apply(db);
        } catch (RuntimeException e) {
            try {
                db.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return new JdbcStore(db, clock);
    }

    /** The file of a {@code jdbc:sqlite:} URL; in-memory databases are refused (readers need the shared file). */
    private static Path sqliteFile(String rest) {
        String path = rest.startsWith("file:") ? rest.substring("file:".length()) : rest;
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        if (path.isBlank() || path.contains(":memory:") || rest.contains("mode=memory")) {
            throw new IllegalArgumentException("an in-memory SQLite store is not supported: its reads and writes "
                    + "use separate connections that must share one file; give a file path");
        }
        return Path.of(path);
    }
}
