package dev.clawgate.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.store.Stores;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The config version on a real PostgreSQL (SPEC OP-2, RT-3), without any NOTIFY: what a node whose LISTEN connection
 * was down finds at its next heartbeat. Skipped without PostgreSQL unless CLAWGATE_REQUIRE_PG is set.
 */
class ConfigFollowerTest {
    private MigratedPostgresSchema pg;
    private String url;

    @BeforeEach
    void schema() {
        pg = new MigratedPostgresSchema("follow");
        url = pg.url();
    }

    @AfterEach
    void drop() throws Exception {
        if (pg != null) pg.close();
    }

    private ClusterBook book(String node) {
        ClusterBook b = Stores.openCluster(url, node, Duration.ofSeconds(10), Duration.ofSeconds(5));
        pg.opened(b);
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
