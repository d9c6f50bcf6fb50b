package dev.clawgate.store;

import static org.assertj.core.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL server the tests use: {@code CLAWGATE_PG_URL} if set, else 127.0.0.1:5432, database {@code test}, user
 * {@code postgres} or the OS user. When none answers the tests are skipped with a message, unless
 * {@code CLAWGATE_REQUIRE_PG} is set: then they fail.
 */
final class PostgresServer {

    static final String REQUIRE_ENV = "CLAWGATE_REQUIRE_PG";
    static final String URL_ENV = "CLAWGATE_PG_URL";

    private static final ReentrantLock PROBE = new ReentrantLock();
    private static String reachable;
    private static String unreachableReason;

    private PostgresServer() {}

    /** A base URL that answers, or the test is skipped (or failed, when PostgreSQL is required). */
    static String baseUrl() {
        PROBE.lock();
        try {
            if (reachable == null && unreachableReason == null) {
                probe();
            }
        } finally {
            PROBE.unlock();
        }
        if (reachable != null) {
            return reachable;
        }
        String message =
                "PostgreSQL tests skipped: " + unreachableReason + "; set " + REQUIRE_ENV + " to make this a failure";
        if (System.getenv(REQUIRE_ENV) != null) {
            fail("PostgreSQL is required (" + REQUIRE_ENV + " is set) but " + unreachableReason);
        }
        System.err.println(message);
        Assumptions.abort(message);
        throw new AssertionError("unreachable");
    }

    static String withSchema(String base, String schema) {
        return base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    static void execute(String url, String... statements) {
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run test setup SQL on PostgreSQL: " + e.getMessage(), e);
        }
    }

    private static void probe() {
        List<String> candidates = new ArrayList<>();
        String configured = System.getenv(URL_ENV);
        if (configured != null && !configured.isBlank()) {
            candidates.add(configured);
        } else {
            candidates.add("jdbc:postgresql://127.0.0.1:5432/test?user=postgres&connectTimeout=3");
            candidates.add("jdbc:postgresql://127.0.0.1:5432/test?user=" + System.getProperty("user.name")
                    + "&connectTimeout=3");
        }
        String reason = "no candidate URL";
        for (String url : candidates) {
            try (Connection c = DriverManager.getConnection(url)) {
                if (c.isValid(3)) {
                    reachable = url;
                    return;
                }
            } catch (SQLException e) {
                reason = "no PostgreSQL answered (" + e.getMessage() + ")";
            }
        }
        unreachableReason = reason;
    }
}
