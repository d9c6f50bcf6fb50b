package dev.clawgate.server.cluster;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.clawgate.store.Stores;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * A schema of its own on the test PostgreSQL server, migrated, for one test; what the test opens on it is closed before
 * the schema is dropped. Skips the test without PostgreSQL unless CLAWGATE_REQUIRE_PG is set.
 */
final class MigratedPostgresSchema implements AutoCloseable {
    private final String base;
    private final String schema;
    private final String url;
    private final List<AutoCloseable> opened = new ArrayList<>();

    MigratedPostgresSchema(String purpose) {
        base = Optional.ofNullable(System.getenv("CLAWGATE_PG_URL"))
                .orElse("jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
        schema = ("clawgate_" + purpose + "_" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
        try (Connection c = DriverManager.getConnection(base);
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            if (System.getenv("CLAWGATE_REQUIRE_PG") != null) throw new AssertionError("no PostgreSQL: " + e);
            assumeTrue(false, "no PostgreSQL at " + base);
        }
        url = base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
        opened(Stores.openPostgres(url, 2, Duration.ofSeconds(5), "setup"));
    }

    /** The JDBC URL of the schema. */
    String url() {
        return url;
    }

    /** {@code c}, to be closed (last opened first) before the schema is dropped. */
    <T extends AutoCloseable> T opened(T c) {
        opened.add(c);
        return c;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : opened.reversed()) c.close();
        try (Connection c = DriverManager.getConnection(base);
                Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}
