package dev.clawgate.store;

import dev.clawgate.core.store.StoreException;
import dev.clawgate.store.internal.Migrations;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * Backup and restore of the SQLite store (SPEC OP-9). A backup is {@code VACUUM INTO}: one read transaction, so under
 * WAL it is a consistent snapshot of the last commit while the gateway keeps writing (SQLite's page-copy backup API
 * would restart whenever another connection writes). A restore checks the file first, then copies it in with SQLite's
 * backup API, which takes the database's locks and leaves no stale WAL behind. PostgreSQL has its own tools (pg_dump).
 */
public final class SqliteBackup {

    /** What {@link #check} found in a file: its schema version and SQLite's own integrity check. */
    public record Check(int schemaVersion, List<String> problems) {
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    private SqliteBackup() {}

    /**
     * The SQLite file that {@code store.url} names (the rules of {@link Stores#open(String, Path)}), or empty when the
     * store is PostgreSQL.
     */
    public static Optional<Path> databaseFile(String url, Path dataDir) {
        if (url == null || url.isBlank()) return Optional.of(dataDir.resolve(Stores.DEFAULT_FILE_NAME));
        String trimmed = url.strip();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:postgresql:")) return Optional.empty();
        if (!lower.startsWith("jdbc:sqlite:")) {
            throw new IllegalArgumentException("store.url must start with jdbc:sqlite: or jdbc:postgresql:");
        }
        String path = trimmed.substring("jdbc:sqlite:".length());
        if (path.startsWith("file:")) path = path.substring("file:".length());
        int query = path.indexOf('?');
        Path file = Path.of(query >= 0 ? path.substring(0, query) : path);
        return Optional.of(file.isAbsolute() ? file : dataDir.resolve(file));
    }

    /**
     * Writes a consistent copy of {@code database} to {@code target} (mode 0600), safe while a gateway writes to it.
     * The copy is written beside the target and renamed into place, so an interrupted backup leaves no half file.
     *
     * @throws IllegalArgumentException when {@code target} exists or {@code database} does not
     */
    public static void backup(Path database, Path target) {
        if (!Files.isRegularFile(database)) throw new IllegalArgumentException("there is no database at " + database);
        if (Files.exists(target)) {
            throw new IllegalArgumentException(target + " exists; name a new file (a backup never overwrites one)");
        }
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        try {
            Files.deleteIfExists(partial);
            // VACUUM INTO accepts an empty file: made first, so the copy is private from its first byte (SPEC OP-6)
            createPrivate(partial);
            try (Connection c = open(database, false);
                    PreparedStatement vacuum = c.prepareStatement("VACUUM INTO ?")) {
                vacuum.setString(1, partial.toAbsolutePath().toString());
                vacuum.execute();
            }
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (SQLException e) {
            deleteQuietly(partial, e);
            throw new StoreException("backup failed [SQLState " + e.getSQLState() + "]: " + e.getMessage(), e);
        } catch (IOException e) {
            deleteQuietly(partial, e);
            throw new StoreException(
                    "backup failed: cannot write " + target + " ("
                            + e.getClass().getSimpleName() + ")",
                    e);
        }
    }

    /** SQLite's {@code PRAGMA integrity_check} of {@code file}, opened read-only, and its Clawgate schema version. */
    public static Check check(Path file) {
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("there is no file " + file);
        List<String> problems = new ArrayList<>();
        int version = 0;
        try (Connection c = open(file, true);
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
                while (rs.next()) {
                    if (!"ok".equals(rs.getString(1))) problems.add(rs.getString(1));
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE name = 'schema_version'")) {
                if (rs.next() && rs.getInt(1) == 0) {
                    problems.add("it is not a Clawgate database (no schema_version table)");
                } else
                    try (ResultSet v = st.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
                        version = v.next() ? v.getInt(1) : 0;
                    }
            }
        } catch (SQLException e) {
            problems.add("SQLite cannot read it: " + e.getMessage());
        }
        return new Check(version, List.copyOf(problems));
    }

    /**
     * Replaces the contents of {@code database} with those of {@code source} after checking {@code source}; the caller
     * has made sure no gateway uses {@code database}. The database as it was is first copied to
     * {@code <database>.before-restore} (replacing an older one there).
     *
     * @return the copy of the database as it was, or empty when there was none
     * @throws IllegalArgumentException when {@code source} fails its check or is newer than this code
     */
    public static Optional<Path> restore(Path source, Path database) {
        Check check = check(source);
        if (!check.ok()) {
            throw new IllegalArgumentException(
                    source + " fails the integrity check: " + String.join("; ", check.problems()));
        }
        int latest = Migrations.schema().latestVersion();
        if (check.schemaVersion() > latest) {
            throw new IllegalArgumentException(source + " has schema version " + check.schemaVersion()
                    + " but this Clawgate knows versions up to " + latest + "; restore it with the newer Clawgate");
        }
        Optional<Path> before = Optional.empty();
        try {
            if (Files.isRegularFile(database)) {
                Path copy = database.resolveSibling(database.getFileName() + ".before-restore");
                Files.deleteIfExists(copy);
                backup(database, copy);
                before = Optional.of(copy);
            } else {
                Files.createDirectories(database.toAbsolutePath().getParent());
            }
            PrivateFiles.sqliteFiles(database);
            try (Connection c = open(database, false)) {
                String from = source.toAbsolutePath().toString();
                c.unwrap(SQLiteConnection.class).getDatabase().restore("main", from, null);
            }
            return before;
        } catch (SQLException e) {
            throw new StoreException("restore failed [SQLState " + e.getSQLState() + "]: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StoreException("restore failed: " + e.getClass().getSimpleName() + " on " + database, e);
        }
    }

    private static Connection open(Path file, boolean readOnly) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(5000);
        config.setReadOnly(readOnly);
        if (readOnly) config.setOpenMode(org.sqlite.SQLiteOpenMode.READONLY);
        return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), config.toProperties());
    }

    private static void createPrivate(Path file) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(file);
        } catch (FileAlreadyExistsException e) {
            throw new IOException(file + " exists", e);
        }
    }

    private static void deleteQuietly(Path file, Exception cause) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
