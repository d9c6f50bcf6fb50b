package dev.clawgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.store.Stores;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The packaged gateway polling the fake Bot API with {@code ack_policy = "after_durable_send"}, halted again and again
 * at {@code outbox.before_ack} (a reply decided, the {@code getUpdates} offset that confirms its update not yet sent),
 * at the outbox's other points and at random ones, while users keep writing; restarted each time on the same data dir.
 * Telegram then hands the unconfirmed updates out again: dedupe must keep every one of them from a second run and a
 * second reply, and at the end every update is confirmed. Telegram cannot look sent messages up, so a send cut by a
 * halt is {@code unknown_after_send}, reported, never resent (SPEC IN-3, IN-1, IN-4, OUT-5, OUT-7, OUT-12). Sizes:
 * {@code telegram.ack.*} system properties (the pom's defaults are short, {@code -Psoak} long).
 */
class TelegramAckCrashIT {
    private static final String TOKEN = "4343:ack-crash-token";
    private static final Pattern TAG = Pattern.compile("msg-(\\d+)-(\\d+)");
    private static final List<String> POINTS =
            List.of(Failpoints.OUTBOX_BEFORE_ACK, Failpoints.OUTBOX_BEFORE_CLAIM, Failpoints.OUTBOX_AFTER_SEND);

    private final Path dir = Path.of(System.getProperty("crash.workdir", "target/crash-run"))
            .resolve("telegram-ack")
            .toAbsolutePath();
    private final int messages = Integer.getInteger("telegram.ack.messages", 60);
    private final int users = Integer.getInteger("telegram.ack.users", 10);
    private final int killsPerPoint = Integer.getInteger("telegram.ack.killsPerPoint", 3);
    private final int randomKills = Integer.getInteger("telegram.ack.randomKills", 1);
    private final long seed = Long.getLong("crash.seed", 20260101L);

    @Test
    void aHaltBetweenTheDurableReplyAndTheOffsetRedeliversTheUpdateButNeverRepliesTwice() throws Exception {
        // SPEC IN-3 (after_durable_send; a crash between the decision and the ack repeats the ack at most once), IN-1
        // (dedupe
        // catches the redelivery), IN-4, OUT-12 (one reply per turn), OUT-7 (a cut send is unknown_after_send, not
        // resent)
        CrashRecoveryIT.clean(dir);
        Random rnd = new Random(seed);
        long started = System.nanoTime();
        try (FakeTelegramServer tg = FakeTelegramServer.start(TOKEN, "ack_bot");
                FakeOpenAiServer model = FakeOpenAiServer.start()) {
            model.respondWith(body -> Reply.text("re: " + lastUser(body)).delayBefore(Duration.ofMillis(20)));
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(
                    config,
                    ItConfig.baseToml(dir, "127.0.0.1:0", model.baseUrl(), 8, 1000)
                            + ItConfig.telegramToml(TOKEN, tg.apiBase(), "ack_policy = \"after_durable_send\"\n"));
            ChildGateway child = ChildGateway.ofPackagedJar(
                    config, dir.resolve("gateway.log"), ChildGateway.Mode.JAR, "unused-secret", null);
            List<TelegramChat> chats = new ArrayList<>();
            List<TelegramUser> people = new ArrayList<>();
            for (int u = 0; u < users; u++) {
                people.add(tg.user(2000 + u, "user" + u));
                chats.add(tg.privateChat(people.get(u)));
            }

            List<String> plan = plan(rnd);
            int chunk = Math.max(1, messages / (plan.size() + 1));
            int released = 0;
            List<CrashRecoveryIT.Round> rounds = new ArrayList<>();
            for (int i = 0; i < plan.size(); i++) {
                int take = Math.min(chunk, messages - released);
                for (int m = released; m < released + take; m++)
                    tg.sendText(chats.get(m % users), people.get(m % users), tag(m));
                released += take;
                String point = plan.get(i);
                // one offset advance may confirm a whole round's updates, so before_ack halts at its first pass: the
                // first
                // advance past a reply decided in this process
                String armed = point.equals(CrashRecoveryIT.RANDOM)
                        ? CrashRecoveryIT.RANDOM + " " + (seed + i) + ":" + CrashRecoveryIT.RANDOM_PERCENT
                        : point + ":"
                                + (point.equals(Failpoints.OUTBOX_BEFORE_ACK) ? 1 : 1 + rnd.nextInt(Math.max(1, take)));
                rounds.add(CrashRecoveryIT.runRound(
                        child, i + 1, point, armed, () -> tg.pendingUpdates() == 0, Activity.of(tg, model)));
            }

            for (int m = released; m < messages; m++) tg.sendText(chats.get(m % users), people.get(m % users), tag(m));
            rounds.add(
                    CrashRecoveryIT.finalRound(child, plan.size() + 1, () -> tg.pendingUpdates() == 0 && settled(dir)));

            check(tg, rounds, (System.nanoTime() - started) / 1_000_000);
        }
    }

    /** The text of message {@code m}: its sender and its number for that sender, found again in the reply. */
    private String tag(int m) {
        return "msg-" + m % users + "-" + m / users;
    }

    private void check(FakeTelegramServer tg, List<CrashRecoveryIT.Round> rounds, long millis) throws Exception {
        Map<String, Integer> repliesPerTag = new HashMap<>();
        for (SentMessage m : tg.sent()) {
            if (m.text() == null || !m.text().startsWith("re: ")) continue;
            String answered = tagOf(m.text());
            if (!answered.isEmpty()) repliesPerTag.merge(answered, 1, Integer::sum);
        }
        InboxAudit audit;
        try (Store store = Stores.open(null, dir.resolve("data"))) {
            audit = InboxAudit.read(store);
        }
        Set<String> unknown = audit.outbox().stream()
                .filter(e -> e.state() == OutboxState.UNKNOWN_AFTER_SEND)
                .map(OutboxEntry::draft)
                .map(d -> tagOf(d.text()))
                .collect(Collectors.toSet());
        Set<String> failed = audit.records().stream()
                .filter(r -> r.state() == InboxState.FAILED)
                .map(r -> tagOf(r.message().text()))
                .collect(Collectors.toSet());
        int once = 0, duplicates = 0, listed = 0;
        List<String> unexplained = new ArrayList<>();
        for (int m = 0; m < messages; m++) {
            int n = repliesPerTag.getOrDefault(tag(m), 0);
            if (n == 1) once++;
            else if (n > 1) duplicates++;
            else if (unknown.contains(tag(m)) || failed.contains(tag(m))) listed++;
            else unexplained.add(tag(m));
        }
        long redelivered = Files.readAllLines(dir.resolve("gateway.log")).stream()
                .filter(l -> l.contains("duplicate telegram message"))
                .count();
        long haltsBeforeAck = rounds.stream()
                .filter(r -> r.halted() && r.armed().startsWith(Failpoints.OUTBOX_BEFORE_ACK))
                .count();
        StringBuilder sb = new StringBuilder();
        sb.append("messages=")
                .append(messages)
                .append(" users=")
                .append(users)
                .append(" killsPerPoint=")
                .append(killsPerPoint)
                .append(" randomKills=")
                .append(randomKills)
                .append(" seed=")
                .append(seed)
                .append(" ack_policy=after_durable_send\n")
                .append(Report.roundsTable(rounds))
                .append('\n');
        sb.append("- answered exactly once: ")
                .append(once)
                .append("; twice or more: ")
                .append(duplicates)
                .append("; no reply but listed (reply unknown_after_send, or turn failed after two cut runs): ")
                .append(listed)
                .append("; no reply and not listed: ")
                .append(unexplained.size())
                .append('\n');
        sb.append("- updates Telegram handed out again after a halt, dropped by dedupe (log lines): ")
                .append(redelivered)
                .append("; halts between a durable reply and its offset: ")
                .append(haltsBeforeAck)
                .append('\n');
        sb.append("- every update confirmed at the end: ")
                .append(tg.pendingUpdates() == 0)
                .append(" (offset ")
                .append(tg.confirmedOffset())
                .append(", last update ")
                .append(tg.lastUpdateId())
                .append(")\n");
        sb.append("- inbox: ")
                .append(audit.states())
                .append("; records ")
                .append(audit.records().size())
                .append(" for ")
                .append(messages)
                .append(" messages\n");
        sb.append("- outbox: ").append(audit.outboxStates()).append('\n');
        sb.append("- wall time: ")
                .append(millis / 1000)
                .append(" s over ")
                .append(rounds.size())
                .append(" gateway processes\n");
        sb.append('\n').append(Report.roundList(rounds));
        Report.publish(dir.getParent().resolve("telegram-ack-crash-report.md"), "telegram ack crash", sb.toString());

        assertThat(duplicates).as(sb.toString()).isZero();
        assertThat(unexplained).as(sb.toString()).isEmpty();
        assertThat(tg.pendingUpdates()).as("updates never confirmed").isZero();
        assertThat(audit.byMessageId())
                .hasSize(messages)
                .allSatisfy((id, recs) ->
                        assertThat(recs).as("inbox records of %s", id).hasSize(1));
        assertThat(audit.records())
                .allSatisfy(r -> assertThat(r.state())
                        .as("state of %s", r.message().id())
                        .isIn(InboxState.DONE, InboxState.FAILED));
        assertThat(audit.outboxStates()).containsOnlyKeys(OutboxState.SENT, OutboxState.UNKNOWN_AFTER_SEND);
        assertThat(redelivered)
                .as("a halt before the ack makes Telegram hand the update out again")
                .isPositive();
    }

    /**
     * The message a text is about: its last tag. A reply echoes the turn's last user message as the history gives it,
     * and a user message of a failed turn stays in the history, merged before the next one ("msg-9-11\n\nmsg-9-12"):
     * the reply answers the last.
     */
    static String tagOf(String text) {
        Matcher t = TAG.matcher(text);
        String last = "";
        while (t.find()) last = t.group();
        return last;
    }

    private List<String> plan(Random rnd) {
        List<String> plan = new ArrayList<>();
        for (int k = 0; k < killsPerPoint; k++) plan.addAll(POINTS);
        for (int k = 0; k < randomKills; k++) plan.add(CrashRecoveryIT.RANDOM);
        Collections.shuffle(plan, rnd);
        return plan;
    }

    /** Every record ended and no reply waits to be sent. */
    private static boolean settled(Path dir) {
        try (Store store = Stores.open(null, dir.resolve("data"))) {
            Map<OutboxState, Long> outbox = store.outbox().counts();
            return store.inbox().unfinished().isEmpty()
                    && outbox.get(OutboxState.PENDING) == 0
                    && outbox.get(OutboxState.SENDING) == 0;
        }
    }

    private static String lastUser(com.fasterxml.jackson.databind.JsonNode body) {
        com.fasterxml.jackson.databind.JsonNode msgs = body.path("messages");
        for (int i = msgs.size() - 1; i >= 0; i--) {
            if (msgs.get(i).path("role").asText().equals("user"))
                return msgs.get(i).path("content").asText();
        }
        return "";
    }
}
