package dev.clawgate.store.internal;

import dev.clawgate.core.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Brings a database's schema up to the version this code knows, one numbered script at a time, each in its own
 * transaction and recorded in {@code schema_version}. A database already at a newer version is refused: this code would
 * not know what its tables mean.
 */
public final class Migrations {

    /** One numbered script: {@code <root>/<dialect>/V<version>__<description>.sql}. */
    public record Migration(int version, String description) {
        public Migration {
            if (version < 1) {
                throw new IllegalArgumentException("migration versions start at 1, got " + version);
            }
            Objects.requireNonNull(description, "description");
        }

        String resource(String root, Dialect dialect) {
            return "%s/%s/V%03d__%s.sql".formatted(root, dialect.folder(), version, description);
        }
    }

    /** The schema of this version of the code, oldest first. Append; never edit a released script. */
    public static final List<Migration> SCHEMA = List.of(
            new Migration(1, "init"),
            new Migration(2, "pairing"),
            new Migration(3, "buffered_index"),
            new Migration(4, "outbox"),
            new Migration(5, "outbox_retries"),
            new Migration(6, "memory"),
            new Migration(7, "outbox_reply_to"),
            new Migration(8, "cron"),
            new Migration(9, "outbox_payload"),
            new Migration(10, "scoped_recall"),
            new Migration(11, "unreadable_inbound"),
            new Migration(12, "turns"),
            new Migration(13, "memory_vectors"),
            new Migration(14, "cluster"),
            new Migration(15, "inbox_node"),
            new Migration(16, "cluster_config"),
            new Migration(17, "pending_vectors"));

    public static final String ROOT = "db";

    private final String root;
    private final List<Migration> migrations;

    public Migrations(String root, List<Migration> migrations) {
        this.root = root;
        this.migrations = List.copyOf(migrations);
        for (int i = 0; i < this.migrations.size(); i++) {
            if (this.migrations.get(i).version() != i + 1) {
                throw new IllegalArgumentException("migrations must be numbered 1, 2, 3, ... without gaps");
            }
        }
    }

    /** The store's own schema. */
    public static Migrations schema() {
        return new Migrations(ROOT, SCHEMA);
    }

    public int latestVersion() {
        return migrations.size();
    }

    /** Applies every missing migration in order; returns the version the database is now at. */
    public int apply(Database db) {
        Dialect dialect = db.dialect();
        int found = db.write("check schema version", tx -> {
            dialect.lockForMigration(tx);
            tx.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                    + "version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)");
            return currentVersion(tx);
        });
        refuseNewer(found);
        for (Migration migration : migrations) {
            if (migration.version() <= found) {
                continue;
            }
            List<String> statements = statements(readScript(migration.resource(root, dialect)));
            db.write("apply schema migration V" + migration.version(), tx -> {
                dialect.lockForMigration(tx);
                // another node may have applied it while we waited for the lock
                int current = currentVersion(tx);
                refuseNewer(current);
                if (current >= migration.version()) {
                    return null;
                }
                for (String statement : statements) {
                    tx.execute(statement);
                }
                tx.update(
                        "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
                        migration.version(),
                        migration.description(),
                        System.currentTimeMillis());
                return null;
            });
        }
        return db.read("check schema version", Migrations::currentVersion);
    }

    private void refuseNewer(int found) {
        if (found > latestVersion()) {
            throw new StoreException(
                    "the database schema is at version " + found
                            + " but this Clawgate knows versions up to " + latestVersion()
                            + ": it was written by a newer Clawgate; run that version or use another database",
                    null);
        }
    }

    private static int currentVersion(Tx tx) throws SQLException {
        return tx.first("SELECT COALESCE(MAX(version), 0) FROM schema_version", rs -> rs.getInt(1))
                .orElse(0);
    }

    private static String readScript(String resource) {
        try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new StoreException(
                        "schema migration script " + resource + " is missing from the classpath", null);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new StoreException("cannot read schema migration script " + resource, e);
        }
    }

    /**
     * Splits a script into statements at semicolons that end a line; {@code --} comment lines are dropped. Scripts
     * therefore keep one statement's semicolon at the end of its last line.
     */
    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\\R")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            if (trimmed.endsWith(";")) {
                current.append(trimmed, 0, trimmed.length() - 1);
                statements.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(trimmed).append('\n');
            }
        }
        if (!current.toString().isBlank()) {
            statements.add(current.toString().strip());
        }
        return statements;
    }
}
