package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.webhook.FakeWebhookPlatform;
import dev.clawgate.testkit.webhook.PlatformMessage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The gateway as a child JVM ({@code java -jar clawgate.jar run}), halted again and again at the outbox's failpoints
 * and at random ones while the fake platform keeps posting; restarted each time on the same data dir. The fake platform
 * (parent JVM) keeps and counts every reply it is sent, deduplicating nothing, so a reply sent twice shows. With
 * {@code reconcile = true} the restart asks the platform about each reply a crash cut mid-send: no reply may be
 * duplicated or lost. Without it, no reply may be duplicated and every one missing must be reported
 * {@code unknown_after_send}. Sizes come from system properties ({@code outbox.crash.*}; the pom's defaults are short,
 * {@code -Psoak} long).
 */
class OutboxCrashIT {
    private static final String SECRET = "it-outbox-secret-0123456789";
    /**
     * The webhook acks after_receive_record, so outbox.before_ack (the after_durable_send ack) is TelegramAckCrashIT's.
     */
    private static final List<String> POINTS = List.of(Failpoints.OUTBOX_BEFORE_CLAIM, Failpoints.OUTBOX_AFTER_SEND);

    private static final int MAX_IN_FLIGHT = 8;

    private final Path root =
            Path.of(System.getProperty("crash.workdir", "target/crash-run")).toAbsolutePath();
    private final int messages = Integer.getInteger("outbox.crash.messages", 60);
    private final int senders = Integer.getInteger("outbox.crash.senders", 10);
    private final int killsPerPoint = Integer.getInteger("outbox.crash.killsPerPoint", 3);
    private final int randomKills = Integer.getInteger("outbox.crash.randomKills", 1);
    private final long seed = Long.getLong("crash.seed", 20260101L);

    /** What one scenario ended with, read from the platform and the store. */
    record Outcome(
            InboxAudit audit,
            Map<String, Long> finalsPerMessage,
            Map<String, Long> finalsPerKey,
            int lookups,
            List<CrashRecoveryIT.Round> rounds,
            long millis) {}

    @Test
    void withReconcileNoFinalReplyIsDuplicatedOrLostAcrossRepeatedHalts() throws Exception {
        // SPEC OUT-5 (write-ahead intent), OUT-7 (a send cut by a crash is reconciled: found → acked, absent → sent),
        // OUT-12 (one final reply per turn), IN-4 (the turn is recorded before its reply is)
        Outcome o = run("reconcile", true);
        InboxAudit audit = o.audit();
        assertNoDuplicates(o);
        // no loss: every turn that finished has its reply on the platform, exactly once
        List<String> unanswered = audit.records().stream()
                .filter(r -> r.state() == InboxState.DONE)
                .map(r -> r.message().id())
                .filter(id -> !o.finalsPerMessage().containsKey(id))
                .toList();
        assertThat(unanswered)
                .as("finished turns whose reply never reached the platform")
                .isEmpty();
        assertThat(audit.outboxStates()).as("outbox states after the final run").containsOnlyKeys(OutboxState.SENT);
        long reconciled = audit.outbox().stream()
                .filter(e -> "reconciled after a restart".equals(e.detail()))
                .count();
        report("reconcile", o, reconciled);
    }

    @Test
    void withoutReconcileNoFinalReplyIsDuplicatedAndEveryMissingOneIsReportedUnknown() throws Exception {
        // SPEC OUT-7 (without reconcile a send cut by a crash is unknown_after_send: reported, never resent),
        // OUT-5, OUT-12, IN-4
        Outcome o = run("plain", false);
        InboxAudit audit = o.audit();
        assertNoDuplicates(o);
        assertThat(o.lookups())
                .as("lookups by a channel that does not reconcile")
                .isZero();
        Set<Long> unknown = audit.unknownAfterSend();
        List<InboxRecord> unanswered = audit.records().stream()
                .filter(r -> r.state() == InboxState.DONE
                        && !o.finalsPerMessage().containsKey(r.message().id()))
                .toList();
        assertThat(unanswered)
                .as("finished turns without a reply and not reported unknown_after_send")
                .allSatisfy(r -> assertThat(unknown).contains(r.id()));
        assertThat(audit.outboxStates())
                .as("outbox states after the final run")
                .containsOnlyKeys(OutboxState.SENT, OutboxState.UNKNOWN_AFTER_SEND);
        report("plain", o, 0);
    }

    private Outcome run(String scenario, boolean reconcile) throws Exception {
        Path dir = root.resolve("outbox-" + scenario);
        CrashRecoveryIT.clean(dir);
        Random rnd = new Random(seed);
        long started = System.nanoTime();
        try (FakeOpenAiServer model = FakeOpenAiServer.start();
                FakeWebhookPlatform platform = FakeWebhookPlatform.start(SECRET, 8)) {
            int port = CrashRecoveryIT.freePort();
            platform.deliverTo(URI.create("http://127.0.0.1:" + port + ItConfig.WEBHOOK_PATH))
                    .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(250));
            String base = ItConfig.baseToml(dir, "127.0.0.1:" + port, model.baseUrl(), MAX_IN_FLIGHT, 1000);
            assertThat(ItConfig.loaderReadsWebhookTable(dir, base, platform.callbackUrl(), SECRET))
                    .as("the packaged gateway reads [channels.webhook]")
                    .isTrue();
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config, base + ItConfig.webhookToml(platform.callbackUrl(), "reconcile = " + reconcile + "\n"));
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config, dir.resolve("gateway.log"), ChildGateway.Mode.JAR, SECRET, platform.callbackUrl());

            List<PlatformMessage> script = CrashRecoveryIT.script(messages, senders);
            List<String> plan = plan(rnd);
            int chunk = Math.max(1, messages / (plan.size() + 1));
            int released = 0;
            List<CrashRecoveryIT.Round> rounds = new ArrayList<>();
            for (int i = 0; i < plan.size(); i++) {
                int take = Math.min(chunk, messages - released);
                platform.deliver(script.subList(released, released + take));
                released += take;
                String point = plan.get(i);
                // each fresh message's reply passes every outbox point once, so a K within this round's messages lands
                String armed = point.equals(CrashRecoveryIT.RANDOM)
                        ? CrashRecoveryIT.RANDOM + " " + (seed + i) + ":" + CrashRecoveryIT.RANDOM_PERCENT
                        : point + ":" + (1 + rnd.nextInt(Math.max(1, take)));
                rounds.add(CrashRecoveryIT.runRound(child, i + 1, point, armed, platform, model, released));
            }

            platform.deliver(script.subList(released, messages));
            try (Store store = Stores.open(null, dir.resolve("data"))) {
                rounds.add(CrashRecoveryIT.finalRound(
                        child,
                        plan.size() + 1,
                        () -> platform.accepted() == messages
                                && store.inbox().unfinished().isEmpty()
                                && store.outbox()
                                        .byState(OutboxState.PENDING, OutboxState.SENDING)
                                        .isEmpty()));
            }

            InboxAudit audit;
            try (Store store = Stores.open(null, dir.resolve("data"))) {
                audit = InboxAudit.read(store);
            }
            Map<String, PlatformMessage> byId =
                    script.stream().collect(Collectors.toMap(PlatformMessage::id, Function.identity()));
            checkInbox(audit, platform, byId);
            return new Outcome(
                    audit,
                    audit.finalsPerMessage(platform.replies()),
                    platform.finalRepliesPerKey(),
                    platform.lookups(),
                    rounds,
                    (System.nanoTime() - started) / 1_000_000);
        }
    }

    /** SPEC IN-4: every message accepted once, recorded once, ended; a run restarted at most once. */
    private static void checkInbox(InboxAudit audit, FakeWebhookPlatform platform, Map<String, PlatformMessage> byId) {
        assertThat(platform.refused()).isEmpty();
        assertThat(platform.accepted()).isEqualTo(byId.size());
        assertThat(audit.byMessageId().keySet()).containsExactlyInAnyOrderElementsOf(byId.keySet());
        assertThat(audit.byMessageId())
                .allSatisfy((id, recs) ->
                        assertThat(recs).as("inbox records of %s", id).hasSize(1));
        assertThat(audit.records()).allSatisfy(r -> {
            assertThat(r.state()).as("state of %s", r.message().id()).isIn(InboxState.DONE, InboxState.FAILED);
            // a halt cuts every run in flight, whatever point fired; a run cut twice is failed, not run a third time
            if (r.state() == InboxState.FAILED)
                assertThat(r.attempts())
                        .as("attempts of failed %s", r.message().id())
                        .isEqualTo(2);
        });
        // paired by turn id, not in_reply_to: a reply need not quote (SPEC OUT-3); a missing quote once hid the pairing
        audit.checkRepliesPairWithTheirTurns(platform.replies());
    }

    /** SPEC OUT-12: no inbound message and no idempotency key got two final replies, whatever was cut. */
    private static void assertNoDuplicates(Outcome o) {
        assertThat(o.finalsPerMessage())
                .allSatisfy(
                        (id, n) -> assertThat(n).as("final replies to %s", id).isEqualTo(1));
        assertThat(o.finalsPerKey())
                .allSatisfy(
                        (key, n) -> assertThat(n).as("replies with key %s", key).isEqualTo(1));
        assertThat(o.audit().outboxStates()).doesNotContainKey(OutboxState.POSSIBLY_DUPLICATED);
    }

    private void report(String scenario, Outcome o, long reconciled) throws java.io.IOException {
        InboxAudit audit = o.audit();
        Set<Long> unknown = audit.unknownAfterSend();
        Map<Long, String> messageOfTurn = audit.records().stream()
                .collect(Collectors.toMap(InboxRecord::id, r -> r.message().id()));
        long unknownButDelivered = unknown.stream()
                .filter(t -> o.finalsPerMessage().containsKey(messageOfTurn.get(t)))
                .count();
        long failedTurns = audit.states().getOrDefault(InboxState.FAILED, 0L);
        long duplicates =
                o.finalsPerMessage().values().stream().filter(n -> n > 1).count();
        StringBuilder sb = new StringBuilder();
        sb.append("scenario=")
                .append(scenario)
                .append(" messages=")
                .append(messages)
                .append(" senders=")
                .append(senders)
                .append(" killsPerPoint=")
                .append(killsPerPoint)
                .append(" randomKills=")
                .append(randomKills)
                .append(" seed=")
                .append(seed)
                .append('\n')
                .append(Report.roundsTable(o.rounds()))
                .append('\n');
        sb.append("- messages: ")
                .append(messages)
                .append("; delivered (one final reply each): ")
                .append(o.finalsPerMessage().size())
                .append("; duplicates: ")
                .append(duplicates)
                .append('\n');
        sb.append("- unknown_after_send: ")
                .append(unknown.size())
                .append(" (of them the platform had: ")
                .append(unknownButDelivered)
                .append("); reconciled after a restart: ")
                .append(reconciled)
                .append("; lookups: ")
                .append(o.lookups())
                .append('\n');
        sb.append("- inbox states: ")
                .append(audit.states())
                .append(" (failed = a run cut twice by halts before its reply was committed, so it has none: ")
                .append(failedTurns)
                .append(")\n");
        sb.append("- outbox: ").append(audit.outboxStates()).append('\n');
        sb.append("- wall time: ")
                .append(o.millis() / 1000)
                .append(" s over ")
                .append(o.rounds().size())
                .append(" gateway processes\n");
        sb.append('\n').append(Report.roundList(o.rounds()));
        Report.publish(
                root.resolve("outbox-crash-report-" + scenario + ".md"),
                "outbox crash (" + scenario + ")",
                sb.toString());
    }

    /**
     * Each outbox point {@code killsPerPoint} times, plus random rounds, shuffled so points alternate unpredictably.
     */
    private List<String> plan(Random rnd) {
        List<String> plan = new ArrayList<>();
        for (int k = 0; k < killsPerPoint; k++) plan.addAll(POINTS);
        for (int k = 0; k < randomKills; k++) plan.add(CrashRecoveryIT.RANDOM);
        Collections.shuffle(plan, rnd);
        return plan;
    }
}
