package dev.clawgate.it;

import static org.awaitility.Awaitility.await;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 7's kill test: the real gateway jar on the fake Telegram Bot API, killed with SIGKILL (no failpoint, no
 * warning) while messages keep arriving, and restarted on the same data dir. Every user message must end with exactly
 * one reply, or be listed: its reply {@code unknown_after_send} in the outbox, or its turn {@code failed} after two cut
 * runs; none may be answered twice (SPEC OUT-12, OUT-7, IN-4, CH-3).
 */
class TelegramKillIT {
    private static final String TOKEN = "4242:kill-test-token";

    private final Path dir = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
            .resolve("telegram-kill")
            .toAbsolutePath();

    @Test
    void everyMessageGetsOneReplyOrIsListedAcrossKillsDuringLoad() throws Exception {
        int users = Integer.getInteger("telegram.kill.users", 20);
        int perUser = Integer.getInteger("telegram.kill.perUser", 10);
        int kills = Integer.getInteger("telegram.kill.kills", 3);
        CrashRecoveryIT.clean(dir);
        Files.createDirectories(dir);
        try (FakeTelegramServer telegram = FakeTelegramServer.start(TOKEN, "kill_bot");
                FakeOpenAiServer model = FakeOpenAiServer.start()) {
            // a short think per reply, so kills land on turns in flight and on sends on the wire
            model.respondWith(
                    body -> Reply.text("re: " + KillAudit.lastUser(body)).delayBefore(Duration.ofMillis(30)));
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config,
                    ItConfig.baseToml(dir, "127.0.0.1:0", model.baseUrl(), 8, 1000)
                            + ItConfig.telegramToml(TOKEN, telegram.apiBase(), ""));
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config, dir.resolve("gateway.log"), ChildGateway.Mode.JAR, "unused-secret", null);

            List<TelegramChat> chats = new ArrayList<>();
            List<TelegramUser> people = new ArrayList<>();
            for (int u = 0; u < users; u++) {
                TelegramUser user = telegram.user(1000 + u, "user" + u);
                people.add(user);
                chats.add(telegram.privateChat(user));
            }
            int total = users * perUser;
            Thread sender = Thread.ofVirtual().start(() -> {
                // about 100 messages a second, round-robin over the users
                for (int i = 0; i < total; i++) {
                    int u = i % users;
                    telegram.sendText(chats.get(u), people.get(u), "msg-" + u + "-" + (i / users));
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });

            Process p = child.start(null, null);
            p = KillRun.killAtShares(
                    child,
                    p,
                    kills,
                    total,
                    Duration.ofSeconds(90),
                    () -> replies(telegram).size());
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
                            replies(telegram).stream().map(SentMessage::text).toList()),
                    audit);
            String report = tally.report(
                    "Telegram kill test: %d messages from %d users, %d SIGKILLs during the run"
                            .formatted(total, users, killed),
                    audit);
            Files.writeString(dir.resolve("telegram-kill-report.md"), report);
            System.out.println(report);
            tally.assertNoneTwiceNoneLost(report);
        }
    }

    /** The bot's text messages that answer a user message. */
    private static List<SentMessage> replies(FakeTelegramServer telegram) {
        return telegram.sent().stream()
                .filter(m -> m.text() != null && m.text().startsWith("re: "))
                .toList();
    }
}
