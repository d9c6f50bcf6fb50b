package dev.clawgate.store;

import dev.clawgate.core.store.Store;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;

/** A SQLite file in the test's temporary folder. */
record SqliteBackend(Path file) implements StoreBackend {

    @Override
    public Store open(Clock clock) {
        return Stores.openSqlite(file, clock);
    }

    @Override
    public Connection raw() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    @Override
    public void failTranscriptInsertsContaining(String marker) throws SQLException {
        try (Connection c = raw();
                Statement st = c.createStatement()) {
            st.execute("CREATE TRIGGER fail_marked BEFORE INSERT ON transcript WHEN instr(NEW.content, '" + marker
                    + "') > 0 BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
        }
    }

    @Override
    public void failInboxInsertsOfMessagesStartingWith(String prefix) throws SQLException {
        try (Connection c = raw();
                Statement st = c.createStatement()) {
            st.execute("CREATE TRIGGER fail_inbox BEFORE INSERT ON inbox WHEN substr(NEW.message_id, 1, "
                    + prefix.length() + ") = '" + prefix + "' BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
        }
    }
}
