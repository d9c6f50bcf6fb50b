package dev.clawgate.server.cluster;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.core.store.Store;
import dev.clawgate.server.config.Deployment;
import dev.clawgate.store.Stores;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens the store {@code [store]} names and, for PostgreSQL, this node's place in the cluster (SPEC OP-1, OP-2). */
public final class StoreOpening {
    private static final Logger log = LoggerFactory.getLogger(StoreOpening.class);

    /** Exit status of a node the cluster declared dead (EX_TEMPFAIL): a service manager starts it again. */
    public static final int FENCED_EXIT = 75;

    private StoreOpening() {}

    /** The store: SQLite in {@code dataDir} unless {@code store.url} says otherwise. The URL is never logged whole. */
    public static Store open(Deployment where, Path dataDir) {
        Deployment.Store s = where.store();
        if (!where.clustered()) return Stores.open(s.url(), dataDir);
        log.info(
                "store: PostgreSQL at {} (pool {}, cluster node {})",
                s.redactedUrl(),
                s.poolSize(),
                where.cluster().nodeId());
        return Stores.openPostgres(
                s.url(), s.poolSize(), s.connectTimeout(), where.cluster().nodeId());
    }

    /** This node's part in the cluster, or null when the store is not PostgreSQL. */
    public static ClusterNode cluster(Deployment where, ClawgateConfig cfg) {
        if (!where.clustered()) return null;
        ClusterBook book = Stores.openCluster(
                where.store().url(),
                where.cluster().nodeId(),
                where.cluster().leaseTtl(),
                where.store().connectTimeout());
        return new ClusterNode(book, where.cluster(), cfg.inbound().inboxMaxAge(), () -> {
            System.err.println("clawgate: this node was fenced out of the cluster; exiting (" + FENCED_EXIT + ")");
            Runtime.getRuntime().halt(FENCED_EXIT);
        });
    }
}
