package dev.clawgate.server.config;

import java.time.Duration;
import java.util.Locale;

/** Reads {@code [store]} and {@code [cluster]} into a {@link Deployment} (SPEC OP-1, OP-2). */
final class DeploymentSection {
    private DeploymentSection() {}

    static Deployment read(TableReader root) {
        TableReader s = root.table("store");
        Deployment.Store d = Deployment.Store.defaults();
        String url = s.string("url");
        if (url != null && url.isBlank()) url = null;
        if (url != null) {
            String lower = url.strip().toLowerCase(Locale.ROOT);
            if (!lower.startsWith("jdbc:postgresql:") && !lower.startsWith("jdbc:sqlite:")) {
                // never quote the value: it may hold a password
                throw s.error(s.keyPath("url"), "must start with jdbc:postgresql: (cluster mode) or jdbc:sqlite:");
            }
        }
        Deployment.Store store = new Deployment.Store(
                url == null ? null : url.strip(),
                s.integer("pool_size", d.poolSize(), 1, 1000),
                s.duration("connect_timeout", d.connectTimeout(), Duration.ofMillis(250)));
        TableReader c = root.table("cluster");
        Deployment.Cluster dc = Deployment.Cluster.defaults();
        String node = c.string("node_id");
        if (node != null && !node.matches("[A-Za-z0-9][A-Za-z0-9._:-]{0,99}")) {
            throw c.error(c.keyPath("node_id"), "must be 1-100 letters, digits, '.', '_', ':' or '-'");
        }
        Duration heartbeat = c.duration("heartbeat_interval", dc.heartbeatInterval(), Duration.ofMillis(100));
        Duration ttl = c.duration("lease_ttl", dc.leaseTtl(), Duration.ofMillis(300));
        if (ttl.compareTo(heartbeat.multipliedBy(2)) < 0) {
            throw c.error(c.keyPath("lease_ttl"), "must be at least twice cluster.heartbeat_interval");
        }
        return new Deployment(store, new Deployment.Cluster(node == null ? dc.nodeId() : node, heartbeat, ttl));
    }
}
