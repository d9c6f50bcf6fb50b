package dev.clawgate.store;

import dev.clawgate.core.store.Store;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Locale;
import java.util.UUID;

/** A schema of its own on the test PostgreSQL server, created and dropped by one test class. */
final class PostgresSchema implements StoreBackend {

    private final String baseUrl;
    private final String name;

    private PostgresSchema(String baseUrl, String name) {
        this.baseUrl = baseUrl;
        this.name = name;
    }

    /** Creates the schema, or skips the calling test class when no server answers. */
    static PostgresSchema create(String purpose) {
        String base = PostgresServer.baseUrl();
        String name =
                ("clawgate_" + purpose + "_" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
        PostgresSchema schema = new PostgresSchema(base, name);
        PostgresServer.execute(base, "CREATE SCHEMA " + name);
        return schema;
    }

    /** Empties the schema so the next test starts from a fresh database. */
    void reset() {
        PostgresServer.execute(baseUrl, "DROP SCHEMA IF EXISTS " + name + " CASCADE", "CREATE SCHEMA " + name);
    }

    void drop() {
        PostgresServer.execute(baseUrl, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }

    String url() {
        return PostgresServer.withSchema(baseUrl, name);
    }

    @Override
    public Store open(Clock clock) {
        return Stores.open(url(), null, clock);
    }

    @Override
    public Connection raw() throws SQLException {
        return DriverManager.getConnection(url());
    }

    @Override
    public void failTranscriptInsertsContaining(String marker) throws SQLException {
        try (Connection c = raw();
                Statement st = c.createStatement()) {
            st.execute("CREATE FUNCTION fail_marked() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " IF position('" + marker + "' in NEW.content) > 0 THEN RAISE EXCEPTION 'injected failure';"
                    + " END IF; RETURN NEW; END $$");
            st.execute("CREATE TRIGGER fail_marked BEFORE INSERT ON transcript FOR EACH ROW EXECUTE FUNCTION "
                    + "fail_marked()");
        }
    }

    @Override
    public void failInboxInsertsOfMessagesStartingWith(String prefix) throws SQLException {
        try (Connection c = raw();
                Statement st = c.createStatement()) {
            st.execute("CREATE FUNCTION fail_inbox() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " IF left(NEW.message_id, " + prefix.length() + ") = '" + prefix
                    + "' THEN RAISE EXCEPTION 'injected failure';"
                    + " END IF; RETURN NEW; END $$");
            st.execute("CREATE TRIGGER fail_inbox BEFORE INSERT ON inbox FOR EACH ROW EXECUTE FUNCTION fail_inbox()");
        }
    }
}
