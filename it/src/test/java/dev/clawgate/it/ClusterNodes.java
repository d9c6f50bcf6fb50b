package dev.clawgate.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * Gateways of one cluster (SPEC OP-2), each a separate JVM of the packaged jar with its own data dir and port, all on
 * one PostgreSQL schema of their own. Without a PostgreSQL server the tests are skipped, unless CLAWGATE_REQUIRE_PG is
 * set.
 */
final class ClusterNodes implements AutoCloseable {
    static final String DEFAULT_PG = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    final String schema;
    final String url;
    private final String base;
    private final Path dir;
    private final List<Node> nodes = new ArrayList<>();

    /** One node: its child process (null while stopped), its port, its log. */
    static final class Node {
        final String name;
        final int port;
        final ChildGateway child;
        Process process;

        Node(String name, int port, ChildGateway child) {
            this.name = name;
            this.port = port;
            this.child = child;
        }

        String webhookUrl() {
            return "http://127.0.0.1:" + port + ItConfig.WEBHOOK_PATH;
        }
    }

    private ClusterNodes(String base, String schema, Path dir) {
        this.base = base;
        this.schema = schema;
        this.url = base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
        this.dir = dir;
    }

    /** A fresh schema on the test PostgreSQL; skips the test when there is none and CLAWGATE_REQUIRE_PG is unset. */
    static ClusterNodes create(Path dir, String purpose) throws IOException {
        return create(
                dir,
                purpose,
                Optional.ofNullable(System.getenv("CLAWGATE_PG_URL")).orElse(DEFAULT_PG));
    }

    /** A fresh schema in the database {@code base} names. */
    static ClusterNodes create(Path dir, String purpose, String base) throws IOException {
        String schema = ("clawgate_it_" + purpose + "_"
                        + UUID.randomUUID().toString().substring(0, 8))
                .toLowerCase(Locale.ROOT);
        try (Connection c = DriverManager.getConnection(base);
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            if (System.getenv("CLAWGATE_REQUIRE_PG") != null)
                throw new AssertionError("CLAWGATE_REQUIRE_PG is set but PostgreSQL does not answer: " + e);
            assumeTrue(false, "no PostgreSQL at " + base + " (" + e.getSQLState() + "): cluster tests skipped");
        }
        CrashRecoveryIT.clean(dir);
        Files.createDirectories(dir);
        return new ClusterNodes(base, schema, dir);
    }

    /**
     * Adds a node whose config is {@code toml} (data dir and bind filled in) plus this cluster's store and a short
     * heartbeat.
     */
    Node add(String name, TomlFor toml, String secret) throws IOException {
        int port = freePort();
        Path nodeDir = dir.resolve(name);
        Files.createDirectories(nodeDir);
        Path config = nodeDir.resolve("clawgate.toml");
        Files.writeString(config, toml.of(nodeDir, "127.0.0.1:" + port) + """

                        [store]
                        url = "%s"
                        pool_size = 6

                        [cluster]
                        node_id = "%s"
                        heartbeat_interval = "1s"
                        lease_ttl = "10s"
                        """.formatted(url, name));
        Node n = new Node(
                name,
                port,
                ChildGateway.ofPackagedJar(
                        config, nodeDir.resolve("gateway.log"), ChildGateway.Mode.JAR, secret, null));
        nodes.add(n);
        return n;
    }

    /** The node config without the cluster parts. */
    @FunctionalInterface
    interface TomlFor {
        String of(Path nodeDir, String bind);
    }

    void start(Node n) throws IOException {
        n.process = n.child.start(null, null);
    }

    /** The node that holds {@code listener}'s lease now, if any. */
    Optional<String> listenerOf(String listener) {
        try (Connection c = DriverManager.getConnection(url);
                var ps = c.prepareStatement("SELECT node_id FROM listener_leases WHERE listener = ?")) {
            ps.setString(1, listener);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    /** How many open inbox records {@code node} holds (took, was handed, or took over) with no hand-off pending. */
    int heldBy(String node) {
        try (Connection c = DriverManager.getConnection(url);
                var ps = c.prepareStatement("SELECT COUNT(*) FROM inbox i WHERE i.node_id = ? AND i.state IN"
                        + " ('received', 'dispatched') AND NOT EXISTS (SELECT 1 FROM cluster_handoffs h WHERE"
                        + " h.inbox_id = i.id)")) {
            ps.setString(1, node);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        } catch (SQLException e) {
            return -1;
        }
    }

    /** Rows inserted, updated and deleted per table of this cluster's schema so far (PostgreSQL's statistics). */
    java.util.Map<String, Long> rowWrites() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        try (Connection c = DriverManager.getConnection(url);
                var ps = c.prepareStatement("SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM"
                        + " pg_stat_user_tables WHERE schemaname = ?")) {
            ps.setString(1, schema);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getString(1), rs.getLong(2));
            }
        } catch (SQLException e) {
            out.put("unavailable: " + e.getSQLState(), 0L);
        }
        return out;
    }

    /** What is left open in the cluster's tables, for a failure's message: counts, open records, nodes, hand-offs. */
    String openWork() {
        StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            for (String q : List.of(
                    "SELECT state, count(*) FROM inbox GROUP BY state",
                    "SELECT state, claimed_by, count(*) FROM outbox GROUP BY state, claimed_by",
                    "SELECT i.id, i.channel, i.message_id, i.session_id, i.state, i.attempts, i.detail, l.node_id,"
                            + " i.recorded_at, (SELECT count(*) FROM cluster_handoffs h WHERE h.inbox_id = i.id)"
                            + " FROM inbox i LEFT JOIN session_leases l ON l.session_id = i.session_id"
                            + " WHERE i.state IN ('received', 'dispatched') ORDER BY i.id",
                    "SELECT * FROM cluster_nodes",
                    "SELECT * FROM cluster_handoffs")) {
                out.append("\n-- ").append(q).append('\n');
                try (var rs = st.executeQuery(q)) {
                    int cols = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= cols; i++)
                            out.append(rs.getString(i)).append(" | ");
                        out.append('\n');
                    }
                }
            }
        } catch (SQLException e) {
            out.append(e);
        }
        return out.toString();
    }

    Node node(String name) {
        return nodes.stream().filter(n -> n.name.equals(name)).findFirst().orElseThrow();
    }

    /** The cluster's store, read by the audits. */
    Store store() {
        return Stores.open(url, null);
    }

    @Override
    public void close() throws Exception {
        for (Node n : nodes) {
            if (n.process != null && n.process.isAlive()) {
                n.process.destroyForcibly();
                n.process.waitFor();
            }
        }
        try (Connection c = DriverManager.getConnection(base);
                Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
