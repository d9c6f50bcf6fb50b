package dev.clawgate.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.core.store.Store;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The config version on a real PostgreSQL (SPEC OP-2, RT-3), without any NOTIFY: what a node whose LISTEN connection
 * was down finds at its next heartbeat. Skipped without PostgreSQL unless CLAWGATE_REQUIRE_PG is set.
 */
class ConfigFollowerTest {
    private final List<AutoCloseable> opened = new ArrayList<>();
    private String base;
    private String schema;
    private String url;

    @BeforeEach
    void schema() {
        base = Optional.ofNullable(System.getenv("CLAWGATE_PG_URL"))
                .orElse("jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
        schema = ("clawgate_follow_" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
        try (Connection c = DriverManager.getConnection(base);
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            if (System.getenv("CLAWGATE_REQUIRE_PG") != null) throw new AssertionError("no PostgreSQL: " + e);
            assumeTrue(false, "no PostgreSQL at " + base);
        }
        url = base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
        Store migrated = Stores.openPostgres(url, 2, Duration.ofSeconds(5), "setup");
        opened.add(migrated);
    }

    @AfterEach
    void drop() throws Exception {
        for (AutoCloseable c : opened.reversed()) c.close();
        if (schema == null) return;
        try (Connection c = DriverManager.getConnection(base);
                Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    private ClusterBook book(String node) {
        ClusterBook b = Stores.openCluster(url, node, Duration.ofSeconds(10), Duration.ofSeconds(5));
        opened.add(b);
        return b;
    }

    @Test
    void aNodeThatMissedTheNotifyFollowsTheNewerVersionAtItsNextRoundOnceAndNeverItsOwn() {
        // SPEC OP-2, RT-3: the polling fallback; a reload follows each announcement once, and never echoes
        ConfigFollower a = new ConfigFollower(book("node-a"));
        ConfigFollower b = new ConfigFollower(book("node-b"));
        AtomicInteger readA = new AtomicInteger();
        AtomicInteger readB = new AtomicInteger();
        a.follow(readA::incrementAndGet, () -> "agent=01;providers=02");
        b.follow(readB::incrementAndGet, () -> "agent=01;providers=02");
        b.round();
        assertThat(readB).hasValue(0);

        a.announce("agent=01;providers=02");
        a.round();
        assertThat(readA).as("its own announcement").hasValue(0);
        b.round();
        b.round();
        assertThat(readB).hasValue(1);

        b.announce("agent=01;providers=03");
        a.round();
        b.round();
        assertThat(readA).hasValue(1);
        assertThat(readB).hasValue(1);
    }

    @Test
    void aNodeStartedAfterAnAnnouncementDoesNotReloadForIt() {
        // SPEC OP-2: the version in force when a node starts is its own file's already
        new ConfigFollower(book("node-a")).announce("agent=01");
        ConfigFollower late = new ConfigFollower(book("node-c"));
        AtomicInteger read = new AtomicInteger();
        late.follow(read::incrementAndGet, () -> "agent=01");
        late.round();
        assertThat(read).hasValue(0);
    }
}
