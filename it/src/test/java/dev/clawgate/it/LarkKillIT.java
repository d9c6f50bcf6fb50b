package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.lark.FakeLark;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's Lark/Feishu kill test: the real gateway jar behind the fake open platform's event pusher (v2.0 events,
 * encrypted and signed), or on its long connection (the default mode: pbbp2 frames over a loopback WebSocket the
 * gateway dials), killed with SIGKILL while users keep writing, and restarted on the same data dir and port. The
 * platform pushes every event again until it is answered 200 (acked with code 200 over the long connection). Every
 * message must end with exactly one reply, or be listed: its reply {@code unknown_after_send} in the outbox, or its
 * turn {@code failed} after two cut runs; none may be answered twice, none silently lost. Replies carry a {@code uuid}
 * derived from the outbox payload, so a resend under it gives the first message back, never a second one.
 */
// SPEC CH-11, OUT-7, OUT-12, IN-1
class LarkKillIT {
    private static final String APP_ID = "cli_killtest0001";
    private static final String SECRET = "kill-test-app-secret";
    private static final String VERIFY = "kill-test-verification-token";
    private static final String ENCRYPT = "kill-test-encrypt-key";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path runs =
            Path.of(System.getProperty("crash.workdir", "target/crash-run")).toAbsolutePath();

    @Test
    void everyMessageGetsOneReplyOrIsListedAcrossKillsDuringLoad() throws Exception {
        run(runs.resolve("lark-kill"), "", false, false);
    }

    /**
     * The default mode: each kill cuts the long connection; the platform pushes what was not acked again on the
     * connection the restarted gateway opens.
     */
    @Test
    void overTheLongConnectionEveryMessageGetsOneReplyOrIsListedAcrossKills() throws Exception {
        run(runs.resolve("lark-kill-ws"), "", false, true);
    }

    /**
     * With {@code outbox.resend_unknown = true} a send cut by a kill is sent again (marked possibly_duplicated); under
     * the same {@code uuid} the platform gives the first message back, so still none is answered twice.
     */
    @Test
    void aCutSendResentUnderItsUuidIsNoDuplicate() throws Exception {
        run(runs.resolve("lark-kill-resend"), "\n[outbox]\nresend_unknown = true\n", true, false);
    }

    private void run(Path dir, String extraToml, boolean resendUnknown, boolean longConnection) throws Exception {
        int users = Integer.getInteger("lark.kill.users", 10);
        int perUser = Integer.getInteger("lark.kill.perUser", 10);
        int kills = Integer.getInteger("lark.kill.kills", 2);
        // paced so the users are still writing when the kills land: pushes meet a dead port and are pushed again
        // over the long connection slower still, so kills cut the socket while events are being pushed and acked
        long pause = Long.getLong("lark.kill.pauseMillis", longConnection ? 150 : 40);
        CrashRecoveryIT.clean(dir);
        Files.createDirectories(dir);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (FakeLark lark = FakeLark.start(APP_ID, SECRET, VERIFY, ENCRYPT);
                FakeOpenAiServer model = FakeOpenAiServer.start()) {
            // the platform keeps pushing while the gateway restarts (it retries a failed push for hours)
            lark.retryBackoff(Duration.ofMillis(50), Duration.ofSeconds(1), Integer.MAX_VALUE);
            // a short think per reply, so kills land on turns in flight and on sends on the wire
            model.respondWith(
                    body -> Reply.text("re: " + KillAudit.lastUser(body)).delayBefore(Duration.ofMillis(30)));
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config,
                    ItConfig.baseToml(dir, "127.0.0.1:" + port, model.baseUrl(), 8, 1000)
                            + larkToml(lark, longConnection)
                            + extraToml);
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config, dir.resolve("gateway.log"), ChildGateway.Mode.JAR, "unused-secret", null);
            if (!longConnection) lark.deliverTo(URI.create("http://127.0.0.1:" + port + "/webhooks/lark"));

            int total = users * perUser;
            Process p = child.start(null, null);
            Process first = p;
            await().atMost(Duration.ofSeconds(60)).until(() -> listening(port) || !first.isAlive());
            Map<String, String> tagOfDelivery = new HashMap<>();
            Thread sender = Thread.ofVirtual().start(() -> {
                // about 25 messages a second, round-robin over the users, each in a direct chat with the bot
                for (int i = 0; i < total; i++) {
                    int u = i % users;
                    String tag = "msg-" + u + "-" + (i / users);
                    lark.userSendsText("ou_user" + u, "oc_dm_user" + u, "p2p", tag);
                    // the only pusher: the newest delivery is this message's; read after the thread is joined
                    tagOfDelivery.put(lark.deliveryIds().getLast(), tag);
                    try {
                        Thread.sleep(pause);
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
                    () -> replies(lark).size());
            int killed = kills;
            sender.join();
            Process last = p;
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() ->
                            (KillAudit.settled(dir, total) && lark.unaccepted().isEmpty()) || !last.isAlive());
            ChildGateway.stop(last);

            Map<String, Integer> repliesPerMessage = new HashMap<>();
            Set<String> uuids = new HashSet<>();
            int uuidless = 0;
            for (FakeLark.Sent m : replies(lark)) {
                String answered = KillAudit.tagOf(text(m));
                if (!answered.isEmpty()) repliesPerMessage.merge(answered, 1, Integer::sum);
                if (m.uuid() == null || !uuids.add(m.uuid())) uuidless++;
            }
            long resentUnderUuid = lark.calls().stream()
                            .filter(c -> c.method().equals("messages.reply")
                                    || c.method().equals("messages.create"))
                            .count()
                    - lark.sent().size();
            Audit audit = audit(dir);
            int once = 0, duplicates = 0, listed = 0, missing = 0;
            List<String> unexplained = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                String tag = "msg-" + (i % users) + "-" + (i / users);
                int n = repliesPerMessage.getOrDefault(tag, 0);
                if (n == 1) once++;
                else if (n > 1) duplicates++;
                else if (audit.unknown.contains(tag) || audit.failed.contains(tag)) listed++;
                else {
                    missing++;
                    unexplained.add(tag);
                }
            }
            List<String> notAccepted = lark.unaccepted();
            long pushedAgain = lark.deliveryIds().stream()
                    .filter(id -> lark.pushAttempts(id) > 1)
                    .count();
            long answeredTwice = answersPerDelivery(lark).values().stream()
                    .filter(n -> n > 1)
                    .count();
            long slowestAck = lark.calls().stream()
                    .filter(c -> c.method().equals("ws.ack"))
                    .mapToLong(c -> Long.parseLong(c.headers().getOrDefault("biz_rt", "0")))
                    .max()
                    .orElse(0);
            String report = """
                    Lark kill test%s%s: %d messages from %d users, %d SIGKILLs during the run
                    - answered exactly once: %d
                    - answered twice or more: %d
                    - no reply, listed (reply unknown_after_send: %d, turn failed after two cut runs: %d): %d
                    - no reply and not listed: %d %s
                    - events never answered 200 by the gateway: %d %s
                    - events the platform pushed more than once: %d (answered by the gateway twice or more: %d)
                    - slowest ack over the long connection (biz_rt, receipt to commit): %d ms
                    - inbox records: %d for %d messages (a redelivered event is the same message, IN-1)
                    - reply/create calls beyond the messages the platform kept (a resent uuid, an error): %d
                    - sent messages without a uuid or with a repeated one: %d
                    - outbox at the end: %s
                    """.formatted(
                    longConnection ? " over the long connection" : " by webhook",
                    resendUnknown ? " (outbox.resend_unknown)" : "",
                    total,
                    users,
                    killed,
                    once,
                    duplicates,
                    audit.unknown.size(),
                    audit.failed.size(),
                    listed,
                    missing,
                    unexplained.size() > 20 ? unexplained.subList(0, 20) + "…" : unexplained,
                    notAccepted.size(),
                    notAccepted.stream().map(tagOfDelivery::get).limit(20).toList(),
                    pushedAgain,
                    answeredTwice,
                    slowestAck,
                    audit.records,
                    total,
                    resentUnderUuid,
                    uuidless,
                    audit.outboxCounts);
            Files.writeString(dir.resolve("report.md"), report);
            System.out.println(report);
            assertThat(notAccepted).as(report).isEmpty();
            assertThat(duplicates).as(report).isZero();
            assertThat(missing).as(report).isZero();
            assertThat(uuidless).as(report).isZero();
            assertThat(audit.records).as(report).isEqualTo(total);
            if (resendUnknown) assertThat(audit.unknown).as(report).isEmpty();
            assertThat(once + listed).isEqualTo(total);
        }
    }

    /**
     * {@code [channels.lark]} on the fake, open to every user: in webhook mode encrypted and signed, else the long
     * connection (the default mode: no request URL, no token).
     */
    private static String larkToml(FakeLark lark, boolean longConnection) {
        if (longConnection) {
            return """

                    [channels.lark]
                    app_id = "%s"
                    app_secret = "%s"
                    api_base = "%s"
                    dm_policy = "open"
                    allowed_users = ["*"]
                    """.formatted(APP_ID, SECRET, lark.apiBase());
        }
        return """

                [channels.lark]
                app_id = "%s"
                app_secret = "%s"
                mode = "webhook"
                api_base = "%s"
                webhook_path = "/webhooks/lark"
                verification_token = "%s"
                encrypt_key = "%s"
                dm_policy = "open"
                allowed_users = ["*"]
                """.formatted(APP_ID, SECRET, lark.apiBase(), VERIFY, ENCRYPT);
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            return s.isConnected();
        } catch (IOException e) {
            return false;
        }
    }

    /** The text of a bot's {@code text} message, or "" for any other. */
    private static String text(FakeLark.Sent s) {
        if (!s.msgType().equals("text")) return "";
        try {
            return JSON.readTree(s.content()).path("text").asText("");
        } catch (IOException e) {
            throw new AssertionError("the bot sent content that is not JSON: " + s.content(), e);
        }
    }

    /** The bot's text messages that answer a user's message. */
    private static List<FakeLark.Sent> replies(FakeLark lark) {
        return lark.sent().stream().filter(m -> text(m).startsWith("re: ")).toList();
    }

    /** How many answers (or acks) the gateway gave each delivery (refused connections are not answers). */
    private static Map<String, Long> answersPerDelivery(FakeLark lark) {
        Map<String, Long> n = new LinkedHashMap<>();
        for (PlatformCall c : lark.calls()) {
            if (c.method().equals(FakeLark.WEBHOOK_ANSWER) || c.method().equals("ws.ack")) {
                n.merge(c.headers().get("delivery-id"), 1L, Long::sum);
            }
        }
        return n;
    }

    /** KillAudit's reading of the run, and how many inbox records the messages made (one each, IN-1). */
    private record Audit(List<String> unknown, List<String> failed, Map<OutboxState, Long> outboxCounts, int records) {}

    private static Audit audit(Path dir) {
        KillAudit.Audit a = KillAudit.audit(dir);
        try (Store store = Stores.open(null, dir.resolve("data"))) {
            return new Audit(
                    a.unknown(),
                    a.failed(),
                    a.outboxCounts(),
                    InboxAudit.read(store).records().size());
        }
    }
}
