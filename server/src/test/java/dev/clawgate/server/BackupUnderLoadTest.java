package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.server.cli.Main;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code clawgate backup} of a running gateway under load (SPEC OP-9): users chat over the API while the backup runs;
 * the backup restored elsewhere passes SQLite's integrity check and holds every message the gateway had answered before
 * the backup began, each conversation without a gap.
 */
class BackupUnderLoadTest extends GatewayFixture {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int USERS = 8;

    @Test
    void aBackupTakenDuringALoadRunRestoresEveryMessageAnsweredBeforeIt() throws Exception {
        // SPEC OP-9, OP-1
        model.defaultReply(dev.clawgate.testkit.openai.Reply.text("noted"));
        int port = serve(config());
        Path data = dir.resolve("data").toAbsolutePath();
        Path live = Files.writeString(
                dir.resolve("live.toml"),
                "[gateway]\ndata_dir = \"" + data + "\"\nbind = \"127.0.0.1:" + port + "\"\n");
        Map<String, Integer> answered = new ConcurrentHashMap<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger total = new AtomicInteger();
        List<Thread> users = new ArrayList<>();
        for (int u = 0; u < USERS; u++) {
            String user = "user" + u;
            users.add(Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; !stop.get(); i++) {
                        GatewayHarness.Reply r = GatewayHarness.chat(port, user, user + "-m" + i, null);
                        if (r.status() != 200) throw new AssertionError(user + " got " + r.status() + ": " + r.raw());
                        answered.put(user, i + 1);
                        total.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> total.get() >= 80 || !failures.isEmpty());
        Map<String, Integer> before = new HashMap<>(answered);
        int totalBefore = total.get();
        Path backup = dir.resolve("backup.db");
        int exit = Main.execute("backup", backup.toString(), "--config", live.toString());
        int totalAfter = total.get();
        stop.set(true);
        for (Thread t : users) t.join(Duration.ofSeconds(60));
        assertThat(failures).isEmpty();
        assertThat(exit).isZero();
        assertThat(totalAfter).as("the load went on during the backup").isGreaterThan(totalBefore);

        // restored into another data dir (the live gateway still runs on its own)
        int free;
        try (ServerSocket s = new ServerSocket(0)) {
            free = s.getLocalPort();
        }
        Path restoredDir = dir.resolve("restored").toAbsolutePath();
        Path other = Files.writeString(
                dir.resolve("restored.toml"),
                "[gateway]\ndata_dir = \"" + restoredDir + "\"\nbind = \"127.0.0.1:" + free + "\"\n");
        assertThat(Main.execute("restore", backup.toString(), "--config", other.toString()))
                .isZero();
        assertThat(integrityCheck(restoredDir.resolve("clawgate.db"))).isEqualTo("ok");
        Path export = dir.resolve("export.jsonl");
        assertThat(Main.execute("export", "-o", export.toString(), "--config", other.toString()))
                .isZero();

        Map<String, List<String>> userMessages = new HashMap<>();
        Map<String, String> sessionUser = new HashMap<>();
        Map<String, Integer> sessionReplies = new HashMap<>();
        for (String line : Files.readAllLines(export)) {
            JsonNode n = JSON.readTree(line);
            if (!"message".equals(n.path("type").asText())) continue;
            String session = n.path("session_id").asText();
            String content = n.path("content").asText();
            if ("user".equals(n.path("role").asText())) {
                String user = content.substring(0, content.indexOf("-m"));
                sessionUser.put(session, user);
                userMessages.computeIfAbsent(user, k -> new ArrayList<>()).add(content);
            } else if ("noted".equals(content)) {
                sessionReplies.merge(session, 1, Integer::sum);
            }
        }
        Map<String, Integer> replies = new HashMap<>();
        sessionReplies.forEach((session, n) -> replies.merge(sessionUser.get(session), n, Integer::sum));
        for (int u = 0; u < USERS; u++) {
            String user = "user" + u;
            int done = before.getOrDefault(user, 0);
            List<String> kept = userMessages.getOrDefault(user, List.of());
            // every message answered before the backup began, in order, no gap; at most those sent while it ran
            assertThat(kept.size()).as(user).isGreaterThanOrEqualTo(done).isLessThanOrEqualTo(answered.get(user) + 1);
            for (int i = 0; i < kept.size(); i++) assertThat(kept.get(i)).isEqualTo(user + "-m" + i);
            assertThat(replies.getOrDefault(user, 0)).as(user + "'s replies").isGreaterThanOrEqualTo(done);
        }
        assertThat(Set.copyOf(before.keySet())).hasSize(USERS);
    }

    private static String integrityCheck(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                ResultSet rs = c.createStatement().executeQuery("PRAGMA integrity_check")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
