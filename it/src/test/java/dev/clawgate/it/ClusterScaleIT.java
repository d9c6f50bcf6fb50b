package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import dev.clawgate.testkit.webhook.PlatformMessage;
import dev.clawgate.testkit.webhook.PlatformSignature;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 22's scale figures (SPEC OP-2): replies/s of 1, 2 and 3 gateways (each its own JVM of the packaged jar) on one
 * PostgreSQL under the same webhook driver, and the database's cost per message: commits (pg_stat_database) and
 * statements (the server log, {@code log_statement = all} set on a database of the run's own). Off by default (it takes
 * minutes); {@code -Dcluster.scale.messages=N} (the soak profile sets it) runs it. The report goes to
 * {@code target/crash-run/cluster/scale/cluster-scale-report.md}.
 */
class ClusterScaleIT {
    private static final String SECRET = "cluster-secret-0123456789";
    private static final String DB = "clawgate_scale";
    private static final Path PG_LOG =
            Path.of(System.getProperty("cluster.scale.pglog", "/var/log/postgresql/postgresql-15-main.log"));

    private final Path dir = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
            .resolve("cluster")
            .resolve("scale")
            .toAbsolutePath();

    @Test
    void repliesPerSecondWithOneTwoAndThreeNodes() throws Exception {
        int messages = Integer.getInteger("cluster.scale.messages", 0);
        assumeTrue(messages > 0, "set -Dcluster.scale.messages (the soak profile does) to measure");
        int users = Integer.getInteger("cluster.scale.users", 200);
        String base = ClusterNodes.DEFAULT_PG;
        String bench = base.replace("/test?", "/" + DB + "?");
        try (Connection c = DriverManager.getConnection(base);
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + DB);
            st.execute("CREATE DATABASE " + DB);
            st.execute("ALTER DATABASE " + DB + " SET log_statement = 'all'");
        } catch (SQLException e) {
            assumeTrue(false, "no PostgreSQL to create " + DB + " on: " + e);
        }
        Files.createDirectories(dir);
        StringBuilder report = new StringBuilder("""
                | nodes | messages | replies/s | commits/message | statements/message | idle cluster, per second |
                |---|---|---|---|---|---|
                """);
        try {
            for (int n = 1; n <= 3; n++)
                report.append(run(bench, n, messages, users)).append('\n');
        } finally {
            try (Connection c = DriverManager.getConnection(base);
                    Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + DB + " WITH (FORCE)");
            }
        }
        Files.writeString(dir.resolve("cluster-scale-report.md"), report);
        System.out.println(report);
    }

    private String run(String bench, int n, int messages, int users) throws Exception {
        try (ClusterNodes cluster = ClusterNodes.create(dir.resolve("n" + n), "scale" + n, bench);
                FakeOpenAiServer model = FakeOpenAiServer.start();
                FakeWebhookPlatform hooks = FakeWebhookPlatform.start(SECRET)) {
            model.respondWith(body -> Reply.text("re: " + KillAudit.lastUser(body)));
            ClusterNodes.TomlFor toml = (d, bind) ->
                    ItConfig.baseToml(d, bind, model.baseUrl(), 32, 1000) + ItConfig.webhookToml(hooks.callbackUrl());
            List<ClusterNodes.Node> nodes = new ArrayList<>();
            for (int i = 0; i < n; i++) nodes.add(cluster.add("node-" + (char) ('a' + i), toml, SECRET));
            for (ClusterNodes.Node node : nodes) cluster.start(node);
            HttpClient http = HttpClient.newHttpClient();
            PlatformSignature signature = new PlatformSignature(SECRET);
            for (ClusterNodes.Node node : nodes) {
                await().atMost(Duration.ofSeconds(120))
                        .ignoreExceptions()
                        .until(() -> post(
                                        http,
                                        signature,
                                        node,
                                        PlatformMessage.direct("ping-" + node.name, "probe", "ping"))
                                < 300);
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> replies(hooks) >= n);
            // the cluster's own traffic (heartbeats, sweeps, hand-off polls) while idle; PostgreSQL publishes an idle
            // connection's counts within 10 s, hence the waits
            Thread.sleep(11_000);
            long commits0 = commits(bench);
            long log0 = Files.size(PG_LOG);
            Thread.sleep(10_000);
            long commits1 = commits(bench);
            long log1 = Files.size(PG_LOG);
            long window0 = System.nanoTime();
            double backgroundCommits = (commits1 - commits0) / 10.0;
            double backgroundStatements = statements(log0, log1) / 10.0;
            int before = replies(hooks);
            AtomicInteger next = new AtomicInteger();
            long start = System.nanoTime();
            try (ExecutorService posters = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int p = 0; p < 16; p++) {
                    posters.submit(() -> {
                        for (int i = next.getAndIncrement(); i < messages; i = next.getAndIncrement()) {
                            PlatformMessage m = PlatformMessage.direct(
                                    "s-" + i, "user" + (i % users), "msg-" + (i % users) + "-" + (i / users));
                            // spread without session affinity, as a plain load balancer does: a message reaches its
                            // session's node 1 time in n, else it is handed there
                            ClusterNodes.Node to = nodes.get(Math.floorMod(Long.hashCode(i * 0x9E3779B97F4A7C15L), n));
                            while (post(http, signature, to, m) >= 300) Thread.sleep(50);
                        }
                        return null;
                    });
                }
            }
            await().atMost(Duration.ofMinutes(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> replies(hooks) >= before + messages);
            double secs = (System.nanoTime() - start) / 1e9;
            assertThat(replies(hooks)).isEqualTo(before + messages);
            Thread.sleep(11_000);
            long commits2 = commits(bench);
            long log2 = Files.size(PG_LOG);
            double window = (System.nanoTime() - window0) / 1e9;
            double commits = commits2 - commits1 - backgroundCommits * window;
            double statements = statements(log1, log2) - backgroundStatements * window;
            Files.writeString(dir.resolve("statements-" + n + "-nodes.txt"), statementKinds(log1, log2));
            return "| %d | %d | %.1f | %.1f | %.1f | %.1f commits, %.1f statements |"
                    .formatted(
                            n,
                            messages,
                            messages / secs,
                            commits / messages,
                            statements / messages,
                            backgroundCommits,
                            backgroundStatements);
        }
    }

    private static int post(HttpClient http, PlatformSignature signature, ClusterNodes.Node node, PlatformMessage m)
            throws Exception {
        byte[] body = m.body();
        try {
            HttpRequest r = HttpRequest.newBuilder(URI.create(node.webhookUrl()))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .header(PlatformSignature.HEADER, signature.sign(body))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            return http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException e) {
            return 599;
        }
    }

    private static int replies(FakeWebhookPlatform hooks) {
        return (int) hooks.replies().stream()
                .filter(r -> r.isFinal() && r.accepted())
                .count();
    }

    private static long commits(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            // the statistics are a snapshot per transaction: read them fresh
            st.execute("SELECT pg_stat_clear_snapshot()");
            try (var rs = st.executeQuery("SELECT xact_commit FROM pg_stat_database WHERE datname = '" + DB + "'")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The statements of a window of the log, grouped by their first 80 characters, most frequent first. */
    private static String statementKinds(long from, long to) throws Exception {
        java.util.Map<String, Long> kinds = logged(from, to)
                .map(l -> l.replaceFirst(".*LOG:  (execute [^:]*|statement): ", ""))
                .map(l -> l.substring(0, Math.min(80, l.length())).replaceAll("[0-9]+", "N"))
                .collect(java.util.stream.Collectors.groupingBy(l -> l, java.util.stream.Collectors.counting()));
        StringBuilder out = new StringBuilder();
        kinds.entrySet().stream()
                .sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.append("%7d %s%n".formatted(e.getValue(), e.getKey())));
        return out.toString();
    }

    /** Statements the server logged for the run's database between two offsets of its log (BEGIN, COMMIT too). */
    private static long statements(long from, long to) throws Exception {
        return logged(from, to).count();
    }

    private static java.util.stream.Stream<String> logged(long from, long to) throws Exception {
        try (var in = Files.newInputStream(PG_LOG)) {
            in.skipNBytes(from);
            String text = new String(in.readNBytes((int) (to - from)), java.nio.charset.StandardCharsets.UTF_8);
            String tag = "@" + DB + " LOG:  ";
            return text
                    .lines()
                    .filter(l -> l.contains(tag + "execute") || l.contains(tag + "statement:"))
                    .toList()
                    .stream();
        }
    }
}
