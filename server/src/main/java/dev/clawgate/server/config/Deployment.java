package dev.clawgate.server.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where the gateway keeps its data and whether it runs as one node of a cluster (SPEC OP-1, OP-2): {@code [store]} and
 * {@code [cluster]}. Settings of the process's start, outside {@code ClawgateConfig}: a reload never changes them.
 *
 * @param store {@code [store]}
 * @param cluster {@code [cluster]}; used only when the store is PostgreSQL
 */
public record Deployment(Store store, Cluster cluster) {

    /**
     * {@code [store]}.
     *
     * @param url null: the SQLite file in {@code gateway.data_dir}; else a JDBC URL ({@code ${VAR}} expanded), which
     *     may hold a password: never log it, use {@link #redactedUrl()}
     * @param poolSize {@code pool_size}: PostgreSQL connections at most (default 10)
     * @param connectTimeout {@code connect_timeout}: how long a query waits for a connection (default 10 s)
     */
    public record Store(String url, int poolSize, Duration connectTimeout) {
        private static final Pattern SECRET_PARAM = Pattern.compile("(?i)((?:password|sslpassword|sslkey)=)[^&]*");
        private static final Pattern USER_INFO = Pattern.compile("//([^/@:]*):[^/@]*@");

        public static Store defaults() {
            return new Store(null, 10, Duration.ofSeconds(10));
        }

        /** Whether this is a PostgreSQL store: cluster mode. */
        public boolean postgres() {
            return url != null && url.strip().toLowerCase(Locale.ROOT).startsWith("jdbc:postgresql:");
        }

        /** The URL with every password replaced by {@code ***}: what logs and {@code doctor} may show. */
        public String redactedUrl() {
            if (url == null) return "(SQLite in gateway.data_dir)";
            String noParams = SECRET_PARAM.matcher(url).replaceAll("$1***");
            return USER_INFO.matcher(noParams).replaceAll("//$1:***@");
        }

        @Override
        public String toString() {
            return "Store[url=" + redactedUrl() + ", poolSize=" + poolSize + ", connectTimeout=" + connectTimeout + "]";
        }
    }

    /**
     * {@code [cluster]}.
     *
     * @param nodeId {@code node_id}: this node's name in the cluster (default: host name and process id)
     * @param heartbeatInterval {@code heartbeat_interval} (default 2 s)
     * @param leaseTtl {@code lease_ttl}: a node whose heartbeat is older is dead (default 10 s)
     */
    public record Cluster(String nodeId, Duration heartbeatInterval, Duration leaseTtl) {
        public static Cluster defaults() {
            return new Cluster(defaultNodeId(), Duration.ofSeconds(2), Duration.ofSeconds(10));
        }

        /** Host name and process id: unique per process, so a restarted process is a new node. */
        public static String defaultNodeId() {
            String host;
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "localhost";
            }
            return host + "-" + ProcessHandle.current().pid();
        }
    }

    /** SQLite in the data dir, no cluster. */
    public static Deployment local() {
        return new Deployment(Store.defaults(), Cluster.defaults());
    }

    /** Whether this node runs as part of a cluster: its store is PostgreSQL (SPEC OP-2). */
    public boolean clustered() {
        return store.postgres();
    }
}
