package dev.clawgate.it;

import static org.awaitility.Awaitility.await;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.whatsapp.FakeWhatsAppCloud;
import dev.clawgate.testkit.whatsapp.OutboundMessage;
import dev.clawgate.testkit.whatsapp.WhatsAppContact;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's WhatsApp kill test: the real gateway jar behind the fake Cloud API's webhook pusher, killed with SIGKILL
 * while customers keep writing, and restarted on the same data dir and port. Meta redelivers every notification not
 * answered 200. Every message must end with exactly one reply, or be listed: its reply {@code unknown_after_send} in
 * the outbox (the Cloud API cannot be asked whether a send arrived), or its turn {@code failed} after two cut runs;
 * none may be answered twice (SPEC OUT-12, OUT-7, IN-1, IN-4, CH-12).
 */
class WhatsAppKillIT {
    private static final String TOKEN = "EAAGkill-test-token";
    private static final String SECRET = "kill-test-app-secret";

    private final Path dir = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
            .resolve("whatsapp-kill")
            .toAbsolutePath();

    @Test
    void everyMessageGetsOneReplyOrIsListedAcrossKillsDuringLoad() throws Exception {
        int users = Integer.getInteger("whatsapp.kill.users", 20);
        int perUser = Integer.getInteger("whatsapp.kill.perUser", 10);
        int kills = Integer.getInteger("whatsapp.kill.kills", 3);
        CrashRecoveryIT.clean(dir);
        Files.createDirectories(dir);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (FakeWhatsAppCloud wa = FakeWhatsAppCloud.start(TOKEN, SECRET);
                FakeOpenAiServer model = FakeOpenAiServer.start()) {
            wa.retryBackoff(Duration.ofMillis(50), Duration.ofSeconds(1), Integer.MAX_VALUE);
            // a short think per reply, so kills land on turns in flight and on sends on the wire
            model.respondWith(
                    body -> Reply.text("re: " + KillAudit.lastUser(body)).delayBefore(Duration.ofMillis(30)));
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config, ItConfig.baseToml(dir, "127.0.0.1:" + port, model.baseUrl(), 8, 1000) + whatsappToml(wa));
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config, dir.resolve("gateway.log"), ChildGateway.Mode.JAR, "unused-secret", null);
            wa.deliverTo(URI.create("http://127.0.0.1:" + port + "/webhooks/whatsapp"));

            List<WhatsAppContact> people = new ArrayList<>();
            for (int u = 0; u < users; u++) people.add(wa.contact(Long.toString(15550000000L + u), "user" + u));
            int total = users * perUser;
            Process p = child.start(null, null);
            Process first = p;
            await().atMost(Duration.ofSeconds(60)).until(() -> listening(port) || !first.isAlive());
            Thread sender = Thread.ofVirtual().start(() -> {
                // about 100 messages a second, round-robin over the customers
                for (int i = 0; i < total; i++) {
                    int u = i % users;
                    wa.sendText(people.get(u), "msg-" + u + "-" + (i / users));
                    try {
                        Thread.sleep(10);
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
                    () -> replies(wa).size());
            int killed = kills;
            sender.join();
            Process last = p;
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> (KillAudit.settled(dir, total)
                                    && wa.deliveries().stream().allMatch(d -> d.accepted()))
                            || !last.isAlive());
            ChildGateway.stop(last);

            KillAudit.Audit audit = KillAudit.audit(dir);
            KillRun.Tally tally = KillRun.Tally.of(
                    users,
                    total,
                    KillRun.repliesPerTag(
                            replies(wa).stream().map(OutboundMessage::text).toList()),
                    audit);
            long redelivered = wa.deliveries().stream()
                    .filter(d -> d.attempts().size() > 1)
                    .count();
            String report = tally.report(
                    "WhatsApp kill test: %d messages from %d customers, %d SIGKILLs during the run"
                            .formatted(total, users, killed),
                    audit,
                    "notifications Meta had to deliver more than once: " + redelivered);
            Files.writeString(dir.resolve("whatsapp-kill-report.md"), report);
            System.out.println(report);
            tally.assertNoneTwiceNoneLost(report);
        }
    }

    /** {@code [channels.whatsapp]} on the fake, open to every customer; every reply quotes what it answers. */
    private static String whatsappToml(FakeWhatsAppCloud wa) {
        return """

                [channels.whatsapp]
                access_token = "%s"
                phone_number_id = "%s"
                app_secret = "%s"
                verify_token = "kill-test-verify"
                api_base = "%s"
                dm_policy = "open"
                allowed_users = ["*"]
                """.formatted(TOKEN, wa.phoneNumberId(), SECRET, wa.apiBase());
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            return s.isConnected();
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The business's text messages that answer a customer's message. */
    private static List<OutboundMessage> replies(FakeWhatsAppCloud wa) {
        return wa.sent().stream()
                .filter(m ->
                        m.type().equals("text") && m.text() != null && m.text().startsWith("re: "))
                .toList();
    }
}
