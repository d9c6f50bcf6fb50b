package dev.clawgate.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group history lookup's index (V003) on SQLite: the plan the database really picks for {@link InboxRows#BUFFERED},
 * before and after the script.
 */
class BufferedIndexTest {

    private static final String SCRIPT = "db/sqlite/V003__buffered_index.sql";
    private static final SessionKey ROOM = new SessionKey("telegram", "default", ChatType.GROUP, "room-1", null, null);

    @TempDir
    Path dir;

    @Test
    void bufferedLookupSearchesOneSessionsRowsOnceTheIndexExists() {
        // SPEC IN-6: the pending history of one group must not cost a walk over every group's buffered messages
        try (SqliteDatabase db = SqliteDatabase.open(file())) {
            Migrations.schema().apply(db);
            assertThat(plan(db)).anyMatch(step -> step.contains("inbox_session_state_id (session_id=? AND state=?)"));
            db.write("drop index", tx -> tx.update("DROP INDEX inbox_session_state_id"));
            assertThat(plan(db)).noneMatch(step -> step.contains("inbox_session_state_id"));

            applyScript(db);
            applyScript(db); // IF NOT EXISTS: harmless when the migration already made it

            assertThat(plan(db)).anyMatch(step -> step.contains("inbox_session_state_id (session_id=? AND state=?)"));
            List<String> indexes = db.read(
                    "test query",
                    tx -> tx.list(
                            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'inbox' ORDER BY name",
                            rs -> rs.getString(1)));
            assertThat(indexes).containsExactly("inbox_session_state_id", "inbox_state_id");
        }
    }

    /**
     * The plan on a fresh connection: EXPLAIN does not check the schema cookie, so a pooled one may plan on a stale
     * schema.
     */
    private List<String> plan(SqliteDatabase db) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file().toAbsolutePath());
                PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + InboxRows.BUFFERED)) {
            Object[] params = Params.of(SessionRows.keyParams(ROOM), InboxState.BUFFERED.wireName(), 50);
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            List<String> steps = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    steps.add(rs.getString(4));
                }
            }
            return steps;
        } catch (SQLException e) {
            throw new IllegalStateException("EXPLAIN failed", e);
        }
    }

    private Path file() {
        return dir.resolve("plan.db");
    }

    private static void applyScript(SqliteDatabase db) {
        List<String> statements = Migrations.statements(read(SCRIPT));
        db.write("apply V003", tx -> {
            for (String statement : statements) {
                tx.execute(statement);
            }
            return null;
        });
    }

    private static String read(String resource) {
        try (InputStream in = BufferedIndexTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }
}
