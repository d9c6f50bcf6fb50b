package dev.clawgate.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.clawgate.core.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.sqlite.SQLiteConfig;

/**
 * A user's data as JSON Lines (SPEC OP-9): every session, every transcript message and every memory, one JSON object
 * per line, read in one read-only transaction so the export is one consistent moment of a running gateway. Lines carry
 * a {@code type} ({@code session}, {@code message}, {@code memory}); messages name their session by {@code session_id},
 * sessions come before their messages. Times are ISO-8601 UTC.
 */
public final class DataExport {
    /** How many lines of each kind were written. */
    public record Counts(long sessions, long messages, long memories) {}

    private static final JsonFactory JSON = new JsonFactory();

    private DataExport() {}

    /** Exports the store that {@code store.url} names (null or blank: the SQLite file in {@code dataDir}). */
    public static Counts export(String url, Path dataDir, Writer out) {
        Optional<Path> sqlite = SqliteBackup.databaseFile(url, dataDir);
        try (Connection c = sqlite.isPresent() ? openSqlite(sqlite.get()) : DriverManager.getConnection(url.strip())) {
            c.setReadOnly(true);
            if (sqlite.isEmpty()) c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setAutoCommit(false);
            try {
                return write(c, out);
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            // the message of a connection failure may hold the URL: name the state only
            throw new StoreException("export failed [SQLState " + e.getSQLState() + "]", e);
        }
    }

    private static Counts write(Connection c, Writer out) throws SQLException {
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            json.setRootValueSeparator(null);
            long sessions = rows(
                    c,
                    json,
                    "SELECT id, channel, account, chat_type, reply_target, thread_id, sender, "
                            + "created_at, last_activity FROM sessions ORDER BY id",
                    (rs, g) -> {
                        g.writeStringField("type", "session");
                        g.writeNumberField("id", rs.getLong(1));
                        g.writeStringField("channel", rs.getString(2));
                        g.writeStringField("account", rs.getString(3));
                        g.writeStringField("chat_type", rs.getString(4));
                        g.writeStringField("reply_target", rs.getString(5));
                        optional(g, "thread_id", rs.getString(6));
                        optional(g, "sender", rs.getString(7));
                        time(g, "created_at", rs.getLong(8));
                        time(g, "last_activity", rs.getLong(9));
                    });
            long messages = rows(
                    c,
                    json,
                    "SELECT id, session_id, role, content, inbox_id, created_at FROM transcript "
                            + "ORDER BY session_id, id",
                    (rs, g) -> {
                        g.writeStringField("type", "message");
                        g.writeNumberField("id", rs.getLong(1));
                        g.writeNumberField("session_id", rs.getLong(2));
                        g.writeStringField("role", rs.getString(3));
                        g.writeStringField("content", rs.getString(4));
                        long inbox = rs.getLong(5);
                        if (!rs.wasNull()) g.writeNumberField("turn_id", inbox);
                        time(g, "created_at", rs.getLong(6));
                    });
            long memories = rows(
                    c,
                    json,
                    "SELECT scope, mkey, content, category, created_at, updated_at FROM memories "
                            + "ORDER BY scope, id",
                    (rs, g) -> {
                        g.writeStringField("type", "memory");
                        g.writeStringField("scope", rs.getString(1));
                        g.writeStringField("key", rs.getString(2));
                        g.writeStringField("content", rs.getString(3));
                        g.writeStringField("category", rs.getString(4));
                        time(g, "created_at", rs.getLong(5));
                        time(g, "updated_at", rs.getLong(6));
                    });
            json.flush();
            return new Counts(sessions, messages, memories);
        } catch (IOException e) {
            throw new UncheckedIOException("export: cannot write its output", e);
        }
    }

    private interface Line {
        void write(ResultSet rs, JsonGenerator g) throws SQLException, IOException;
    }

    private static long rows(Connection c, JsonGenerator g, String sql, Line line) throws SQLException, IOException {
        long n = 0;
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setFetchSize(500);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    g.writeStartObject();
                    line.write(rs, g);
                    g.writeEndObject();
                    g.writeRaw('\n');
                    n++;
                }
            }
        }
        return n;
    }

    private static void optional(JsonGenerator g, String name, String value) throws IOException {
        if (value != null && !value.isEmpty()) g.writeStringField(name, value);
    }

    private static void time(JsonGenerator g, String name, long epochMillis) throws IOException {
        g.writeStringField(name, Instant.ofEpochMilli(epochMillis).toString());
    }

    private static Connection openSqlite(Path file) throws SQLException {
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new IllegalArgumentException("there is no database at " + file);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(5000);
        config.setReadOnly(true);
        return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), config.toProperties());
    }
}
