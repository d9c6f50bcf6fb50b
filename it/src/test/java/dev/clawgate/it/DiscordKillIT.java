package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.testkit.discord.DiscordChannel;
import dev.clawgate.testkit.discord.DiscordMessage;
import dev.clawgate.testkit.discord.DiscordUser;
import dev.clawgate.testkit.discord.FakeDiscord;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 18's kill test: the real gateway jar on the fake Discord (Gateway WebSocket and HTTP API), killed with SIGKILL
 * while messages keep arriving, and restarted on the same data dir. The Gateway session kept under the data dir is
 * resumed, so what Discord dispatched while the gateway was dead is replayed; a reply cut by the kill is reconciled by
 * its nonce (Discord returns the message it already has). Every user message must end with exactly one reply, or be
 * listed (its turn {@code failed} after two cut runs); none may be answered twice, and with nonce reconcile no reply is
 * left {@code unknown_after_send} (SPEC OUT-12, OUT-7, IN-1, IN-4, CH-5).
 */
class DiscordKillIT {

    private final Path dir = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
            .resolve("discord-kill")
            .toAbsolutePath();

    @Test
    void everyMessageGetsOneReplyOrIsListedAcrossKillsDuringLoad() throws Exception {
        int users = Integer.getInteger("discord.kill.users", 20);
        int perUser = Integer.getInteger("discord.kill.perUser", 10);
        int kills = Integer.getInteger("discord.kill.kills", 3);
        CrashRecoveryIT.clean(dir);
        Files.createDirectories(dir);
        try (FakeDiscord discord = FakeDiscord.start("kill_bot");
                FakeOpenAiServer model = FakeOpenAiServer.start()) {
            // a short think per reply, so kills land on turns in flight and on sends on the wire
            model.respondWith(
                    body -> Reply.text("re: " + KillAudit.lastUser(body)).delayBefore(Duration.ofMillis(30)));
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config,
                    ItConfig.baseToml(dir, "127.0.0.1:0", model.baseUrl(), 8, 1000)
                            + discordToml(discord.botToken(), discord.apiBase()));
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config, dir.resolve("gateway.log"), ChildGateway.Mode.JAR, "unused-secret", null);

            List<DiscordChannel> chats = new ArrayList<>();
            List<DiscordUser> people = new ArrayList<>();
            for (int u = 0; u < users; u++) {
                DiscordUser user = discord.user("user" + u);
                people.add(user);
                chats.add(discord.dm(user));
            }
            int total = users * perUser;
            Process p = child.start(null, null);
            // Discord dispatches only to a live session: people write once the bot is online
            Process first = p;
            await().atMost(Duration.ofSeconds(60)).until(() -> discord.liveSessions() >= 1 || !first.isAlive());
            Thread sender = Thread.ofVirtual().start(() -> {
                // about 40 messages a second, round-robin over the users (the replies stay near Discord's global 50 a
                // second)
                for (int i = 0; i < total; i++) {
                    int u = i % users;
                    discord.send(chats.get(u), people.get(u), "msg-" + u + "-" + (i / users));
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
                    () -> replies(discord, chats).size());
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
                    KillRun.repliesPerTag(replies(discord, chats).stream()
                            .map(DiscordMessage::content)
                            .toList()),
                    audit);
            String report = tally.report(
                    "Discord kill test: %d messages from %d users, %d SIGKILLs during the run"
                            .formatted(total, users, killed),
                    audit);
            Files.writeString(dir.resolve("discord-kill-report.md"), report);
            System.out.println(report);
            tally.assertNoneTwiceNoneLost(report);
            // with nonce reconcile, a reply cut by a kill is found (or made once) on restart: none is left unknown
            assertThat(audit.unknown()).as(report).isEmpty();
        }
    }

    /** The bot's messages that answer a user message, in every DM. */
    private static List<DiscordMessage> replies(FakeDiscord discord, List<DiscordChannel> chats) {
        List<DiscordMessage> out = new ArrayList<>();
        for (DiscordChannel c : chats)
            out.addAll(discord.botMessages(c).stream()
                    .filter(m -> m.content().startsWith("re: "))
                    .toList());
        return out;
    }

    /** A {@code [channels.discord]} table open to every direct message. */
    private static String discordToml(String token, String apiBase) {
        return """

                [channels.discord]
                bot_token = "%s"
                api_base = "%s"
                dm_policy = "open"
                allowed_users = ["*"]
                """.formatted(token, apiBase);
    }
}
