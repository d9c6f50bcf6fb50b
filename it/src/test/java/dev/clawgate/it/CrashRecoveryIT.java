package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import dev.clawgate.testkit.webhook.PlatformMessage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The gateway as a child JVM, halted again and again at named failpoints and at random ones while a fake platform keeps
 * posting (and retrying) messages; restarted each time on the same data dir. At the end every accepted message must
 * have exactly one inbox record in a final state, no message may have two final replies, and no run may have started
 * more than twice. Sizes come from system properties (the pom's defaults are short; {@code -Psoak} is long).
 */
class CrashRecoveryIT {
    private static final String SECRET = "it-webhook-secret-0123456789";
    private static final List<String> POINTS =
            List.of(Failpoints.INBOX_AFTER_RECORD, Failpoints.TURN_MID_RUN, Failpoints.TURN_AFTER_REPLY_COMMIT);
    static final String RANDOM = "random";
    /** Chance per failpoint pass in a random-kill round; about three passes per message. */
    static final String RANDOM_PERCENT = "8";

    private static final int MAX_IN_FLIGHT = 8;

    /** Under target/, kept after the run: the child's log is the first thing to read when this fails. */
    private final Path dir =
            Path.of(System.getProperty("crash.workdir", "target/crash-run")).toAbsolutePath();

    /** One child run: what was armed, how it ended, how long it lived. */
    record Round(int n, String armed, int exit, long millis) {
        boolean halted() {
            return exit == ChildGateway.HALTED;
        }
    }

    @Test
    void everyAcceptedMessageEndsOnceWithAtMostOneFinalReplyAcrossRepeatedHalts() throws Exception {
        // SPEC IN-4 (durable inbox, re-run at most once), IN-1 (redelivery after a restart is a duplicate),
        // IN-3 (webhook acks after_receive_record), OUT-12 (one final reply per turn)
        int messages = Integer.getInteger("crash.messages", 200);
        int senders = Integer.getInteger("crash.senders", 20);
        int killsPerPoint = Integer.getInteger("crash.killsPerPoint", 5);
        int randomKills = Integer.getInteger("crash.randomKills", 0);
        long seed = Long.getLong("crash.seed", 20260101L);
        Random rnd = new Random(seed);
        long started = System.nanoTime();
        clean(dir);

        try (FakeOpenAiServer model = FakeOpenAiServer.start();
                FakeWebhookPlatform platform = FakeWebhookPlatform.start(SECRET, 8)) {
            int port = freePort();
            platform.deliverTo(URI.create("http://127.0.0.1:" + port + ItConfig.WEBHOOK_PATH))
                    .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(250));
            String base = ItConfig.baseToml(dir, "127.0.0.1:" + port, model.baseUrl(), MAX_IN_FLIGHT, 1000);
            boolean jar = ItConfig.loaderReadsWebhookTable(dir, base, platform.callbackUrl(), SECRET);
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(config, jar ? base + ItConfig.webhookToml(platform.callbackUrl()) : base);
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config,
                    dir.resolve("gateway.log"),
                    jar ? ChildGateway.Mode.JAR : ChildGateway.Mode.LAUNCHER,
                    SECRET,
                    platform.callbackUrl());

            List<PlatformMessage> script = script(messages, senders);
            Map<String, PlatformMessage> byId =
                    script.stream().collect(Collectors.toMap(PlatformMessage::id, Function.identity()));
            List<String> plan = plan(killsPerPoint, randomKills, rnd);
            int chunk = Math.max(1, messages / (plan.size() + 1));
            int released = 0;
            List<Round> rounds = new ArrayList<>();
            for (int i = 0; i < plan.size(); i++) {
                int take = Math.min(chunk, messages - released);
                platform.deliver(script.subList(released, released + take));
                released += take;
                String point = plan.get(i);
                // K within this round's fresh messages: each passes every point at least once, so the halt lands
                String armed = point.equals(RANDOM)
                        ? RANDOM + " " + (seed + i) + ":" + RANDOM_PERCENT
                        : point + ":" + (1 + rnd.nextInt(Math.max(1, take)));
                rounds.add(runRound(child, i + 1, point, armed, platform, model, released));
            }

            platform.deliver(script.subList(released, messages));
            try (Store store = Stores.open(null, dir.resolve("data"))) {
                rounds.add(finalRound(
                        child,
                        plan.size() + 1,
                        () -> platform.accepted() == messages
                                && store.inbox().unfinished().isEmpty()));
            }

            InboxAudit audit;
            try (Store store = Stores.open(null, dir.resolve("data"))) {
                audit = InboxAudit.read(store);
            }
            Report report = check(audit, platform, byId, rounds, plan);
            report.write(
                    dir.resolve("crash-report.md"),
                    messages,
                    senders,
                    killsPerPoint,
                    randomKills,
                    seed,
                    child.mode(),
                    model.chatRequests().size(),
                    platform.posts(),
                    (System.nanoTime() - started) / 1_000_000);
        }
    }

    /** Runs one armed child until it halts, or until the platform's messages are in and all is quiet. */
    static Round runRound(
            ChildGateway child,
            int n,
            String point,
            String armed,
            FakeWebhookPlatform platform,
            FakeOpenAiServer model,
            int released)
            throws Exception {
        return runRound(child, n, point, armed, () -> platform.accepted() >= released, Activity.of(platform, model));
    }

    /** Runs one armed child until it halts, or until {@code allIn} holds and {@code activity} is quiet. */
    static Round runRound(
            ChildGateway child, int n, String point, String armed, BooleanSupplier allIn, Activity activity)
            throws Exception {
        long t0 = System.nanoTime();
        Process p = point.equals(RANDOM)
                ? child.start(null, armed.substring(RANDOM.length() + 1))
                : child.start(armed, null);
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !p.isAlive() || allIn.getAsBoolean() && activity.quietFor(Duration.ofSeconds(2)));
        int exit = p.isAlive() ? ChildGateway.stop(p) : p.waitFor();
        Round round = new Round(n, armed, exit, (System.nanoTime() - t0) / 1_000_000);
        assertThat(exit)
                .as("round %s: exit status (log tail:%n%s)", armed, child.logTail(30))
                .isIn(ChildGateway.HALTED, ChildGateway.TERMINATED, 0);
        if (!point.equals(RANDOM)) {
            assertThat(round.halted())
                    .as("round %s: the failpoint fired (log tail:%n%s)", armed, child.logTail(30))
                    .isTrue();
        }
        return round;
    }

    /** Round {@code n}, unarmed: the child runs until {@code done} holds, then must stop gracefully. */
    static Round finalRound(ChildGateway child, int n, Callable<Boolean> done) throws Exception {
        long t0 = System.nanoTime();
        Process last = child.start(null, null);
        await().atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(250))
                .failFast("the gateway died: " + child.logTail(30), () -> !last.isAlive())
                .until(done);
        int exit = ChildGateway.stop(last);
        assertThat(exit).as("graceful stop of the final run").isIn(0, ChildGateway.TERMINATED);
        return new Round(n, "none (final)", exit, (System.nanoTime() - t0) / 1_000_000);
    }

    private static Report check(
            InboxAudit audit,
            FakeWebhookPlatform platform,
            Map<String, PlatformMessage> byId,
            List<Round> rounds,
            List<String> plan) {
        // every message was accepted exactly once into the inbox
        assertThat(platform.refused()).isEmpty();
        assertThat(platform.accepted()).isEqualTo(byId.size());
        assertThat(audit.byMessageId().keySet()).containsExactlyInAnyOrderElementsOf(byId.keySet());
        assertThat(audit.byMessageId())
                .allSatisfy((id, recs) ->
                        assertThat(recs).as("inbox records of %s", id).hasSize(1));
        // every record ended, and a run started at most twice (SPEC IN-4)
        assertThat(audit.records()).allSatisfy(r -> {
            assertThat(r.state().isFinal()).as("state of %s", r.message().id()).isTrue();
            assertThat(r.state()).as("state of %s", r.message().id()).isIn(InboxState.DONE, InboxState.FAILED);
            assertThat(r.attempts()).as("attempts of %s", r.message().id()).isBetween(1, 2);
            if (r.state() == InboxState.FAILED)
                assertThat(r.attempts()).as("only a twice-cut run fails").isEqualTo(2);
        });
        // the transcript: one user and one assistant message per finished turn, none for a failed one
        for (InboxRecord r : audit.records()) {
            List<?> user = audit.userEntries().getOrDefault(r.id(), List.of());
            List<?> assistant = audit.assistantEntries().getOrDefault(r.id(), List.of());
            assertThat(user).as("user messages of %s", r.message().id()).hasSizeLessThanOrEqualTo(1);
            assertThat(assistant)
                    .as("assistant messages of %s", r.message().id())
                    .hasSize(r.state() == InboxState.DONE ? 1 : 0);
            if (r.state() == InboxState.DONE) assertThat(user).hasSize(1);
        }
        // no message got two final replies; each reply answers its own message; only finished turns replied (SPEC
        // OUT-12)
        Map<String, Long> finals = audit.finalsPerMessage(platform.replies());
        assertThat(finals)
                .allSatisfy(
                        (id, n) -> assertThat(n).as("final replies to %s", id).isEqualTo(1));
        audit.checkRepliesPairWithTheirTurns(platform.replies());
        Map<String, InboxRecord> recordOf = new LinkedHashMap<>();
        audit.records().forEach(r -> recordOf.put(r.message().id(), r));
        assertThat(finals.keySet())
                .allSatisfy(id -> assertThat(recordOf.get(id).state()).isEqualTo(InboxState.DONE));
        List<InboxRecord> unanswered = audit.records().stream()
                .filter(r -> r.state() == InboxState.DONE
                        && !finals.containsKey(r.message().id()))
                .toList();
        long doneWithoutReply = unanswered.size();
        // SPEC OUT-5, OUT-7: a committed reply is never silently lost: it was sent, or its send was cut and is reported
        // as unknown_after_send (not resent without reconcile); a pending one is replayed by the next start
        assertThat(unanswered)
                .as("done turns without a reply and not reported unknown_after_send")
                .allSatisfy(r -> assertThat(audit.unknownAfterSend()).contains(r.id()));
        assertThat(audit.outboxStates())
                .as("outbox states after the final run")
                .containsOnlyKeys(
                        dev.clawgate.core.store.OutboxState.SENT,
                        dev.clawgate.core.store.OutboxState.UNKNOWN_AFTER_SEND);
        return new Report(audit, rounds, plan, finals.size(), doneWithoutReply);
    }

    /** {@code messages} direct messages, round-robin over {@code senders}; ids and texts are unique. */
    static List<PlatformMessage> script(int messages, int senders) {
        List<PlatformMessage> out = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            String sender = "user-%04d".formatted(i % senders);
            String id = "msg-%04d".formatted(i);
            out.add(PlatformMessage.direct(id, sender, "note %d from %s (%s)".formatted(i / senders, sender, id)));
        }
        return out;
    }

    /** Each named point {@code kills} times, plus random rounds, shuffled so points alternate unpredictably. */
    static List<String> plan(int kills, int randomKills, Random rnd) {
        List<String> plan = new ArrayList<>();
        for (int k = 0; k < kills; k++) plan.addAll(POINTS);
        for (int k = 0; k < randomKills; k++) plan.add(RANDOM);
        Collections.shuffle(plan, rnd);
        return plan;
    }

    static void clean(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
            }
        }
        Files.createDirectories(dir);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
