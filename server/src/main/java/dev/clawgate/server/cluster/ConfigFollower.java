package dev.clawgate.server.cluster;

import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.core.store.StoreException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's side of the cluster's config version (SPEC OP-2, RT-3): announces this node's reloads, and re-reads this
 * node's file for every newer version another node announced, whether a NOTIFY woke it or the heartbeat found the
 * version in the database (a node that missed the NOTIFY, its LISTEN connection down, catches up at its next beat). Not
 * under a lock: a re-read reloads, and that reload does not announce again, so announcements do not echo.
 */
final class ConfigFollower {
    private static final Logger log = LoggerFactory.getLogger(ConfigFollower.class);

    private final ClusterBook book;
    private final AtomicLong seen = new AtomicLong();
    private volatile Runnable reRead;
    private volatile Supplier<String> ownDigest;

    ConfigFollower(ClusterBook book) {
        this.book = book;
    }

    void announce(String digest) {
        try {
            long version = book.announceConfig(digest);
            seen.accumulateAndGet(version, Math::max);
            log.info("cluster: config reloaded here; announced as version {}", version);
        } catch (StoreException e) {
            log.warn("cluster: announcing the config reload failed ({}); other nodes keep theirs", e.getMessage());
        }
    }

    /** From now on, follows every newer version; the one in force now is not followed, only compared. */
    void follow(Runnable reRead, Supplier<String> digest) {
        ClusterBook.ConfigVersion now = book.configVersion();
        seen.accumulateAndGet(now.version(), Math::max);
        ownDigest = digest;
        this.reRead = reRead;
        compare(now);
    }

    /** One look at the cluster's version: re-reads this node's file when another node announced a newer one. */
    void round() {
        Runnable r = reRead;
        if (r == null) return;
        ClusterBook.ConfigVersion now = book.configVersion();
        long before = seen.get();
        // the heartbeat and the wake-up may both see it: one follows
        if (now.version() <= before || !seen.compareAndSet(before, now.version())) return;
        if (now.nodeId().equals(book.nodeId())) return;
        log.info(
                "cluster: node {} reloaded its config (version {}); reloading this node's file",
                now.nodeId(),
                now.version());
        r.run();
        compare(now);
    }

    private void compare(ClusterBook.ConfigVersion announced) {
        if (announced.version() == 0) return;
        // section names only: a value may be a secret
        List<String> differ = ConfigDigest.differingSections(ownDigest.get(), announced.digest());
        if (!differ.isEmpty())
            log.warn(
                    "cluster: this node's config differs from node {}'s (version {}) in {}; every node should run the"
                            + " same config but its bind, data_dir, workspace and node_id",
                    announced.nodeId(),
                    announced.version(),
                    differ);
    }
}
