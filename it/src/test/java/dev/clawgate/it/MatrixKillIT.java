package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import dev.clawgate.testkit.matrix.FakeMatrixHomeserver;
import dev.clawgate.testkit.matrix.MatrixRoom;
import dev.clawgate.testkit.matrix.MatrixUser;
import dev.clawgate.testkit.matrix.SentEvent;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's Matrix kill test: the real gateway jar on the fake homeserver, killed with SIGKILL while messages keep
 * arriving, and restarted on the same data dir. Every user message must end with exactly one reply: a batch whose sync
 * token was not stored comes again and is deduped by event id, and a reply cut mid-send is reconciled by its
 * transaction id (found, or proven unsent and sent again with the same id), so none is left {@code unknown_after_send}
 * (SPEC OUT-7, OUT-12, IN-3, IN-4, CH-6).
 */
class MatrixKillIT {
    private static final Pattern TAG = Pattern.compile("msg-(\\d+)-(\\d+)");

    private final Path dir = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
            .resolve("matrix-kill")
            .toAbsolutePath();

    @Test
    void everyMessageGetsExactlyOneReplyAcrossKillsDuringLoad() throws Exception {
        // SPEC OUT-7, OUT-12, IN-3, IN-4, CH-6
        int users = Integer.getInteger("matrix.kill.users", 20);
        int perUser = Integer.getInteger("matrix.kill.perUser", 10);
        int kills = Integer.getInteger("matrix.kill.kills", 3);
        CrashRecoveryIT.clean(dir);
        Files.createDirectories(dir);
        try (FakeMatrixHomeserver hs = FakeMatrixHomeserver.start("killbot");
                FakeOpenAiServer model = FakeOpenAiServer.start()) {
            // a short think per reply, so kills land on turns in flight and on sends on the wire
            model.respondWith(
                    body -> Reply.text("re: " + KillAudit.lastUser(body)).delayBefore(Duration.ofMillis(30)));
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config,
                    ItConfig.baseToml(dir, "127.0.0.1:0", model.baseUrl(), 8, 1000)
                            + """

                    [channels.matrix]
                    homeserver = "%s"
                    access_token = "%s"
                    user_id = "%s"
                    dm_policy = "open"
                    allowed_users = ["*"]
                    """.formatted(
                                            hs.baseUrl(),
                                            hs.botLogin().accessToken(),
                                            hs.bot().userId()));
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config, dir.resolve("gateway.log"), ChildGateway.Mode.JAR, "unused-secret", null);

            List<MatrixRoom> rooms = new ArrayList<>();
            List<MatrixUser> people = new ArrayList<>();
            for (int u = 0; u < users; u++) {
                MatrixUser user = hs.user("user" + u);
                people.add(user);
                MatrixRoom dm = hs.createRoom(user, null);
                hs.joinBot(dm);
                rooms.add(dm);
            }
            Process p = child.start(null, null);
            // the first sync of a new installation reads no history: the load starts once it stored its token
            await().atMost(Duration.ofSeconds(60)).until(() -> tokenStored(dir) || !p.isAlive());
            int total = users * perUser;
            Thread sender = Thread.ofVirtual().start(() -> {
                // about 100 messages a second, round-robin over the users
                for (int i = 0; i < total; i++) {
                    int u = i % users;
                    hs.as(people.get(u)).sendText(rooms.get(u), "msg-" + u + "-" + (i / users));
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });

            Process current = p;
            current = KillRun.killAtShares(
                    child,
                    current,
                    kills,
                    total,
                    Duration.ofSeconds(90),
                    () -> replies(hs).size());
            int killed = kills;
            sender.join();
            Process last = current;
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> settled(dir, total) || !last.isAlive());
            ChildGateway.stop(last);

            Map<String, Integer> repliesPerMessage = new HashMap<>();
            for (SentEvent m : replies(hs)) {
                Matcher t = TAG.matcher(m.body());
                if (t.find()) repliesPerMessage.merge(t.group(), 1, Integer::sum);
            }
            Audit audit = audit(dir);
            int once = 0, duplicates = 0, failed = 0, missing = 0;
            List<String> unexplained = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                String tag = "msg-" + (i % users) + "-" + (i / users);
                int n = repliesPerMessage.getOrDefault(tag, 0);
                if (n == 1) once++;
                else if (n > 1) duplicates++;
                else if (audit.failed().contains(tag)) failed++;
                else {
                    missing++;
                    unexplained.add(tag);
                }
            }
            String report = """
                    Matrix kill test: %d messages from %d users, %d SIGKILLs during the run
                    - answered exactly once: %d
                    - answered twice or more: %d
                    - replies unknown_after_send: %d %s
                    - no reply, turn failed after two cut runs: %d
                    - no reply and not listed: %d %s
                    - outbox at the end: %s
                    """.formatted(
                            total,
                            users,
                            killed,
                            once,
                            duplicates,
                            audit.unknown().size(),
                            audit.unknown(),
                            failed,
                            missing,
                            unexplained.size() > 20 ? unexplained.subList(0, 20) + "…" : unexplained,
                            audit.outboxCounts());
            Files.writeString(dir.resolve("matrix-kill-report.md"), report);
            System.out.println(report);
            assertThat(duplicates).as(report).isZero();
            assertThat(audit.unknown()).as(report).isEmpty();
            assertThat(missing).as(report).isZero();
            assertThat(once + failed).isEqualTo(total);
        }
    }

    private static boolean tokenStored(Path dir) throws java.io.IOException {
        Path data = dir.resolve("data");
        if (!Files.isDirectory(data)) return false;
        try (Stream<Path> files = Files.walk(data)) {
            return files.anyMatch(f -> f.getFileName().toString().equals("next_batch"));
        }
    }

    /** The bot's messages that answer a user message (edits and redactions left out). */
    private static List<SentEvent> replies(FakeMatrixHomeserver hs) {
        return hs.sentByBot().stream()
                .filter(e -> e.type().equals("m.room.message")
                        && !"m.replace".equals(e.relType())
                        && e.body() != null
                        && e.body().startsWith("re: "))
                .toList();
    }

    /** Every message recorded reached a final state and no reply is still waiting to be sent. */
    private static boolean settled(Path dir, int total) {
        Path db = dir.resolve("data");
        if (!Files.isDirectory(db)) return false;
        try (Store store = Stores.open(null, db)) {
            Map<InboxState, Long> inbox = store.inbox().counts();
            long finals = inbox.entrySet().stream()
                    .filter(e -> e.getKey().isFinal())
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            Map<OutboxState, Long> outbox = store.outbox().counts();
            return finals >= total && outbox.get(OutboxState.PENDING) == 0 && outbox.get(OutboxState.SENDING) == 0;
        }
    }

    private record Audit(List<String> unknown, List<String> failed, Map<OutboxState, Long> outboxCounts) {}

    private static Audit audit(Path dir) {
        try (Store store = Stores.open(null, dir.resolve("data"))) {
            List<String> unknown = new ArrayList<>();
            for (OutboxEntry e : store.outbox().byState(OutboxState.UNKNOWN_AFTER_SEND)) {
                Matcher t = TAG.matcher(e.draft().text());
                if (t.find()) unknown.add(t.group());
            }
            List<String> failed = new ArrayList<>();
            for (InboxRecord r : InboxAudit.read(store).records()) {
                if (r.state() != InboxState.FAILED) continue;
                Matcher t = TAG.matcher(r.message().text());
                if (t.find()) failed.add(t.group());
            }
            return new Audit(unknown, failed, new LinkedHashMap<>(store.outbox().counts()));
        }
    }
}
