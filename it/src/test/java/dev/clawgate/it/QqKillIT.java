package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.qq.FakeQq;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's kill test for QQ: the real gateway jar on the fake QQ platform (WebSocket gateway and OpenAPI), killed
 * with SIGKILL while direct messages keep arriving, and restarted on the same data dir. The gateway session kept under
 * the data dir is resumed, so what was dispatched while the gateway was dead is replayed; a reply cut by the kill is
 * reconciled by sending it again with the {@code msg_seq} it took (written before it left): QQ refuses the duplicate
 * when the first arrived. Every user message must end with exactly one reply, or be listed; none may be answered twice
 * (SPEC OUT-12, OUT-7, IN-1, IN-4, CH-13).
 */
class QqKillIT {
    private final Path dir = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
            .resolve("qq-kill")
            .toAbsolutePath();

    @Test
    void everyMessageGetsOneReplyOrIsListedAcrossKillsDuringLoad() throws Exception {
        int users = Integer.getInteger("qq.kill.users", 20);
        int perUser = Integer.getInteger("qq.kill.perUser", 10);
        int kills = Integer.getInteger("qq.kill.kills", 3);
        CrashRecoveryIT.clean(dir);
        Files.createDirectories(dir);
        try (FakeQq qq = FakeQq.start("102030405", "qq-kill-secret");
                FakeOpenAiServer model = FakeOpenAiServer.start()) {
            // a short think per reply, so kills land on turns in flight and on sends on the wire
            model.respondWith(
                    body -> Reply.text("re: " + KillAudit.lastUser(body)).delayBefore(Duration.ofMillis(30)));
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config,
                    ItConfig.baseToml(dir, "127.0.0.1:0", model.baseUrl(), 8, 1000)
                            + qqToml(qq.apiBase(), qq.tokenUrl()));
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config, dir.resolve("gateway.log"), ChildGateway.Mode.JAR, "unused-secret", null);
            int total = users * perUser;
            Process p = child.start(null, null);
            // QQ dispatches only to a live session: people write once the bot is online
            Process first = p;
            await().atMost(Duration.ofSeconds(60)).until(() -> qq.liveSessions() >= 1 || !first.isAlive());
            Thread sender = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < total; i++) {
                    int u = i % users;
                    qq.c2cMessage("USER" + u, "msg-" + u + "-" + (i / users));
                    try {
                        Thread.sleep(25);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            p = KillRun.killAtShares(
                    child,
                    p,
                    kills,
                    total,
                    Duration.ofSeconds(90),
                    () -> replies(qq).size());
            int killed = kills;
            sender.join();
            Process last = p;
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> KillAudit.settled(dir, total) || !last.isAlive());
            ChildGateway.stop(last);

            KillAudit.Audit audit = KillAudit.audit(dir);
            KillRun.Tally tally = KillRun.Tally.of(
                    users,
                    total,
                    KillRun.repliesPerTag(
                            replies(qq).stream().map(FakeQq.Sent::content).toList()),
                    audit);
            long seqDuplicates = qq.calls().stream()
                    .filter(c -> "40054005".equals(c.headers().get(":code")))
                    .count();
            String report = tally.report(
                    "QQ kill test: %d messages from %d users, %d SIGKILLs during the run"
                            .formatted(total, users, killed),
                    audit,
                    "retries QQ refused as a repeated msg_seq (already delivered): " + seqDuplicates);
            Files.writeString(dir.resolve("qq-kill-report.md"), report);
            System.out.println(report);
            tally.assertNoneTwiceNoneLost(report);
            // a passive reply cut by a kill is reconciled by its msg_seq: none is left unknown
            assertThat(audit.unknown()).as(report).isEmpty();
        }
    }

    /** The bot's messages that answer a user message. */
    private static List<FakeQq.Sent> replies(FakeQq qq) {
        return qq.sent().stream().filter(m -> m.content().startsWith("re: ")).toList();
    }

    /** A {@code [channels.qq]} table open to every direct message. */
    private static String qqToml(String apiBase, String tokenUrl) {
        return """

                [channels.qq]
                app_id = "102030405"
                client_secret = "qq-kill-secret"
                api_base = "%s"
                token_url = "%s"
                dm_policy = "open"
                allowed_users = ["*"]
                """.formatted(apiBase, tokenUrl);
    }
}
