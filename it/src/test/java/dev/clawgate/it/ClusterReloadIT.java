package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.webhook.CallbackReply;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import dev.clawgate.testkit.webhook.PlatformMessage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A config reload on one node of a cluster reaches the others (SPEC OP-2, RT-3), and {@code /new} sent through one node
 * acts on the session another node runs (SPEC RT-1, OP-2). Two nodes, separate JVMs through the launcher, on the real
 * PostgreSQL.
 */
class ClusterReloadIT {
    private static final String SECRET = "cluster-secret-0123456789";

    private final Path dir = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
            .toAbsolutePath()
            .resolve("cluster-reload");

    @Test
    void aReloadOnOneNodeMakesTheOtherReReadItsFileAndNewReachesTheNodeRunningTheSession() throws Exception {
        // SPEC OP-2, RT-3, OP-4: nodes started by `clawgate run`; a reload on node A only; node B's next reply uses the
        // new model, B's file untouched in
        // its watcher's eyes (same size, same modification time), so only the cluster's announcement can have done it
        try (ClusterNodes cluster = ClusterNodes.create(dir, "reload");
                FakeOpenAiServer model = FakeOpenAiServer.start();
                FakeWebhookPlatform hooks = FakeWebhookPlatform.start(SECRET)) {
            model.respondWith(body -> Reply.text("re: " + KillAudit.lastUser(body) + " via "
                    + body.path("model").asText() + " seeing "
                    + body.path("messages").size()));
            ClusterNodes.TomlFor toml = (d, bind) ->
                    ItConfig.baseToml(d, bind, model.baseUrl(), 8, 1000) + ItConfig.webhookToml(hooks.callbackUrl());
            ClusterNodes.Node a = cluster.add("node-a", toml, SECRET);
            ClusterNodes.Node b = cluster.add("node-b", toml, SECRET);
            cluster.start(a);
            cluster.start(b);
            send(hooks, b, "hello-1", "rita", "first");
            await().atMost(Duration.ofSeconds(60)).until(() -> replyTo(hooks, "hello-1") != null);
            assertThat(replyTo(hooks, "hello-1")).startsWith("re: first via echo seeing ");
            String firstSeen = replyTo(hooks, "hello-1").substring("re: first via echo seeing ".length());
            send(hooks, a, "ping-a", "probe-a", "ping");
            await().atMost(Duration.ofSeconds(60)).until(() -> replyTo(hooks, "ping-a") != null);

            editKeepingStamp(dir.resolve("node-b").resolve("clawgate.toml"));
            Path fileA = dir.resolve("node-a").resolve("clawgate.toml");
            Files.writeString(fileA, Files.readString(fileA).replace("model = \"echo\"", "model = \"ech2\""));

            // rita's session runs on node B (it took her first message): messages through B until one is answered
            // with the new model
            AtomicInteger n = new AtomicInteger(1);
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> {
                        String id = "hello-" + n.incrementAndGet();
                        send(hooks, b, id, "rita", "again");
                        await().atMost(Duration.ofSeconds(20)).until(() -> replyTo(hooks, id) != null);
                        return replyTo(hooks, id).contains("via ech2");
                    });
            String logB = Files.readString(dir.resolve("node-b").resolve("gateway.log"));
            assertThat(logB).contains("node node-a reloaded its config").doesNotContain("announced as version");
            assertThat(Files.readString(dir.resolve("node-a").resolve("gateway.log")))
                    .contains("announced as version 1");

            // SPEC OP-2: a reload whose file differs on B is followed too, and B names the differing section only
            Files.writeString(fileA, Files.readString(fileA).replace("cap = 1000", "cap = 1234"));
            Path logFileB = dir.resolve("node-b").resolve("gateway.log");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> Files.readString(logFileB)
                            .contains("differs from node node-a's (version 2) in [messages]"));
            assertThat(Files.readString(logFileB)).doesNotContain("1234");

            // SPEC RT-1, OP-2: /new through node A clears the history of the session node B runs
            send(hooks, a, "new-1", "rita", "/new");
            await().atMost(Duration.ofSeconds(20)).until(() -> replyTo(hooks, "new-1") != null);
            send(hooks, b, "after-new", "rita", "fresh");
            await().atMost(Duration.ofSeconds(20)).until(() -> replyTo(hooks, "after-new") != null);
            // as many messages as the first turn saw: nothing of the earlier turns
            assertThat(replyTo(hooks, "after-new")).isEqualTo("re: fresh via ech2 seeing " + firstSeen);
        }
    }

    /** Changes B's model the same way, keeping the file's size and modification time, so its watcher sees nothing. */
    private static void editKeepingStamp(Path file) throws Exception {
        FileTime modified = Files.getLastModifiedTime(file);
        String before = Files.readString(file);
        String after = before.replace("model = \"echo\"", "model = \"ech2\"");
        assertThat(after).isNotEqualTo(before).hasSameSizeAs(before);
        Files.writeString(file, after);
        Files.setLastModifiedTime(file, modified);
    }

    private static void send(FakeWebhookPlatform hooks, ClusterNodes.Node n, String id, String from, String text) {
        await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(() -> {
            hooks.deliverTo(URI.create(n.webhookUrl()));
            return hooks.postOnce(PlatformMessage.direct(id, from, text)).status() < 300;
        });
    }

    private static String replyTo(FakeWebhookPlatform hooks, String id) {
        return hooks.repliesTo(id).stream()
                .map(CallbackReply::text)
                .filter(t -> t != null && t.startsWith("re: "))
                .findFirst()
                .orElseGet(() -> hooks.repliesTo(id).isEmpty()
                        ? null
                        : hooks.repliesTo(id).getLast().text());
    }
}
