package dev.clawgate.it;

import static org.awaitility.Awaitility.await;

import dev.clawgate.testkit.email.MailServer;
import dev.clawgate.testkit.email.MailServer.Mail;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The e-mail channel's kill test (issue 21, SPEC CH-9): the real gateway jar reading a real IMAP mailbox (GreenMail)
 * and answering by SMTP, killed with SIGKILL while mails keep arriving and restarted on the same data dir. A mail is
 * flagged \Seen only after the inbox recorded it, so a kill never loses one, and the inbox deduplicates a mail read
 * again by its Message-ID: every mail must be answered exactly once, or be listed (its reply
 * {@code unknown_after_send}, or its turn {@code failed}); none may be answered twice (SPEC OUT-12, OUT-7, IN-1, IN-4).
 */
class EmailKillIT {
    private static final String BOT = "bot@localhost";

    private final Path dir = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
            .resolve("email-kill")
            .toAbsolutePath();

    @Test
    void everyMailGetsOneReplyOrIsListedAcrossKillsDuringLoad() throws Exception {
        int users = Integer.getInteger("email.kill.users", 5);
        int perUser = Integer.getInteger("email.kill.perUser", 8);
        int kills = Integer.getInteger("email.kill.kills", 2);
        CrashRecoveryIT.clean(dir);
        Files.createDirectories(dir);
        List<String> accounts = new ArrayList<>(List.of(BOT + ":botpass"));
        for (int u = 0; u < users; u++) accounts.add(user(u) + ":pw");
        try (MailServer mail = MailServer.start(accounts.toArray(String[]::new));
                FakeOpenAiServer model = FakeOpenAiServer.start()) {
            model.respondWith(body -> Reply.text(
                            "re: " + KillAudit.tagOf(body.path("messages").toString()))
                    .delayBefore(Duration.ofMillis(30)));
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config,
                    ItConfig.baseToml(dir, "127.0.0.1:0", model.baseUrl(), 8, 1000)
                            + """

                    [channels.email]
                    imap_host = "%s"
                    imap_port = %d
                    smtp_port = %d
                    username = "%s"
                    password = "botpass"
                    tls = "none"
                    dm_policy = "open"
                    allowed_users = ["*"]
                    """.formatted(mail.host(), mail.imapPort(), mail.smtpPort(), BOT));
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config, dir.resolve("gateway.log"), ChildGateway.Mode.JAR, "unused-secret", null);

            int total = users * perUser;
            Thread sender = Thread.ofVirtual().start(() -> {
                // about 20 mails a second, round-robin over the users, each its own thread
                for (int i = 0; i < total; i++) {
                    String tag = "msg-" + (i % users) + "-" + (i / users);
                    mail.send(Mail.text(user(i % users), BOT, "Question " + tag, tag));
                    try {
                        Thread.sleep(50);
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
                    Duration.ofSeconds(120),
                    () -> replies(mail, users).size());
            int killed = kills;
            sender.join();
            Process last = p;
            await().atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> (KillAudit.settled(dir, total)
                                    && mail.inbox(BOT).stream().allMatch(MailServer.Stored::seen))
                            || !last.isAlive());
            ChildGateway.stop(last);

            KillAudit.Audit audit = KillAudit.audit(dir);
            KillRun.Tally tally = KillRun.Tally.of(users, total, KillRun.repliesPerTag(replies(mail, users)), audit);
            String report = tally.report(
                    "E-mail kill test: %d mails from %d senders, %d SIGKILLs during the run"
                            .formatted(total, users, killed),
                    audit);
            Files.writeString(dir.resolve("email-kill-report.md"), report);
            System.out.println(report);
            tally.assertNoneTwiceNoneLost(report);
        }
    }

    private static String user(int u) {
        return "user" + u + "@localhost";
    }

    /** The tags the gateway's replies answer, one per reply mail, across every sender's mailbox. */
    private static List<String> replies(MailServer mail, int users) throws Exception {
        List<String> tags = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            for (MailServer.Stored s : mail.inbox(user(u))) {
                MimeMessage m = s.message();
                String text = String.valueOf(
                        ((MimeMultipart) m.getContent()).getBodyPart(0).getContent());
                if (text.startsWith("re: ") && !KillAudit.tagOf(text).isEmpty()) tags.add(KillAudit.tagOf(text));
            }
        }
        return tags;
    }
}
