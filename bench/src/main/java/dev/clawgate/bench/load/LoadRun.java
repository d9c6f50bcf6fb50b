package dev.clawgate.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.stream.Stream;

/**
 * Runs one {@link LoadPlan}: the fake Telegram Bot API and the fake OpenAI server in this JVM, the bot under test in
 * its own; users write to the bot through the fake, and every {@code sendMessage} the bot makes is matched to the
 * message it answers (SPEC CH-3, OUT-12).
 */
final class LoadRun {
    static final String BOT_TOKEN = "777000:load-driver-token";
    private static final int FIRST_USER_ID = 500_000;
    // a long run must not fill the driver's heap with the fakes' logs (SPEC OP-7 is about the gateway's)
    private static final int TRIM_EVERY = 5_000;
    private static final int KEEP_PER_CHAT = 16;

    static {
        // The JDK's HTTP server (under the fakes) keeps at most 200 idle keep-alive connections and closes the rest as
        // they go idle; a client that reuses one at that moment gets "header parser received no bytes", an ambiguous
        // failure. Telegram has no such cap per bot, so neither may the fake: it must be set before the first server
        // starts.
        if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
            System.setProperty("sun.net.httpserver.maxIdleConnections", "10000");
        }
    }

    private final LoadPlan plan;
    private final List<TelegramUser> people = new ArrayList<>();
    private final List<TelegramChat> chats = new ArrayList<>();
    private final Replies replies = new Replies();
    private FakeTelegramServer telegram;
    private FakeOpenAiServer model;

    LoadRun(LoadPlan plan) {
        this.plan = plan;
    }

    LoadResult run() throws IOException, InterruptedException {
        clean(plan.workDir());
        try (FakeTelegramServer tg = FakeTelegramServer.start(BOT_TOKEN, "load_bot");
                FakeOpenAiServer fm = FakeOpenAiServer.start()) {
            this.telegram = tg;
            this.model = fm;
            if (!plan.modelDelay().isZero()) {
                fm.respondWith(body -> Reply.text(lastUserText(body)).delayBefore(plan.modelDelay()));
            }
            for (int u = 0; u < plan.users(); u++) {
                TelegramUser user = tg.user(FIRST_USER_ID + u, "loaduser" + u);
                people.add(user);
                chats.add(tg.privateChat(user));
            }
            tg.observe(replies);
            int port = freePort();
            Path config =
                    GatewayConfig.write(plan.workDir(), port, fm.baseUrl(), tg.apiBase(), BOT_TOKEN, plan.extraToml());
            Instant startedAt = Instant.now();
            LoadResult result;
            BotProcess bot = BotProcess.start(
                    plan.launch(), plan.jvmArgs(), plan.workDir(), config, List.of(tg.apiBase(), BOT_TOKEN), port);
            try {
                result = drive(bot, startedAt);
            } finally {
                bot.close();
            }
            if (plan.killTest()) {
                // SPEC OUT-7, OUT-12: the stopped gateway's store accounts for every message without exactly one reply
                try {
                    result = result.withKills(KillTally.of(
                            plan.kills(),
                            bot.downtimesMs(),
                            measuredLedger,
                            result.outcome(),
                            GatewayAudit.entries(plan.workDir().resolve("data"))));
                } catch (java.sql.SQLException e) {
                    throw new IOException("the stopped gateway's store could not be read: " + e.getMessage(), e);
                }
            }
            if (result.passed()) return result;
            // the gateway has stopped: its store tells what became of the messages without exactly one reply
            List<Long> odd = new ArrayList<>();
            for (ReplyLedger.Outcome o : java.util.Arrays.asList(result.warmupOutcome(), result.outcome())) {
                if (o == null) continue;
                odd.addAll(o.missing());
                odd.addAll(o.duplicated());
            }
            return result.withAudit(GatewayAudit.explain(plan.workDir().resolve("data"), odd, 20));
        }
    }

    private LoadResult drive(BotProcess bot, Instant startedAt) throws IOException, InterruptedException {
        ProcessProbe probe = new ProcessProbe(bot.current().pid());
        double readyMs = plan.echo() ? awaitFirstPoll(bot.current()) : bot.awaitReady();
        double firstPollMs =
                Duration.between(startedAt, telegram.callTimes("getUpdates").getFirst())
                                .toNanos()
                        / 1e6;
        if (plan.echo()) readyMs = firstPollMs;
        Thread.sleep(plan.idle());
        double idleRss = mib(probe.rssKib());

        Thread housekeeper = Thread.ofVirtual().name("load-housekeeping").start(this::keepHouse);
        ReplyLedger.Outcome warm = null;
        ReplyLedger.Outcome measured;
        Soak soak;
        double loadBefore, loadAfter;
        long cpuBefore, cpuAfter;
        double[] lag = {0};
        try {
            long next = 1;
            if (plan.warmup() > 0) {
                ReplyLedger ledger = new ReplyLedger(next, plan.warmup());
                next += plan.warmup();
                warm = closedLoop(ledger, bot, false);
            }
            ReplyLedger ledger = new ReplyLedger(next, plan.messages());
            measuredLedger = ledger;
            soak = new Soak(plan, probe, ledger);
            loadBefore = ProcessProbe.loadAverage();
            cpuBefore = bot.cpuMillis();
            if (plan.jfr() != null) probe.startFlightRecording();
            this.soak = soak;
            measured = plan.openLoop() ? openLoop(ledger, bot, lag) : closedLoop(ledger, bot, plan.killTest());
            this.soak = null;
            if (plan.jfr() != null) probe.stopFlightRecording(plan.jfr());
            cpuAfter = bot.cpuMillis();
            loadAfter = ProcessProbe.loadAverage();
        } finally {
            housekeeper.interrupt();
            housekeeper.join();
        }
        if (housekeepingFailure != null)
            throw new IOException("soak sampling failed: " + housekeepingFailure.getMessage(), housekeepingFailure);
        soak.finish();
        LoadResult result = new LoadResult(
                plan.label(),
                botName(plan.launch()),
                plan.openLoop() ? "open" : "closed",
                plan.messages(),
                plan.users(),
                plan.openLoopRate(),
                plan.warmup(),
                warm,
                measured,
                firstPollMs,
                readyMs,
                idleRss,
                mib(bot.peakRssKib()),
                mib(new ProcessProbe(bot.current().pid()).rssKib()),
                (cpuAfter - cpuBefore) / (double) plan.messages(),
                plan.modelDelay().toNanos() / 1e6,
                lag[0],
                loadBefore,
                loadAfter,
                plan.jvmArgs(),
                soak.samples(),
                soak.growth(),
                List.of(),
                null);
        bot.checkAlive();
        return result;
    }

    /**
     * Each user sends their next message when their previous one is answered; in a kill test also when the gateway
     * lists the previous one's reply {@code unknown_after_send}.
     */
    private ReplyLedger.Outcome closedLoop(ReplyLedger ledger, BotProcess bot, boolean kills)
            throws InterruptedException, IOException {
        int users = plan.users();
        LongConsumer moveOn = number -> {
            long following = number + users;
            if (ledger.owns(following)) send(ledger, following);
        };
        replies.phase(ledger, moveOn);
        if (!kills) {
            for (long n = ledger.first(); n < ledger.first() + Math.min(users, ledger.count()); n++) send(ledger, n);
            return finish(ledger, bot, null);
        }
        try (GatewayKiller killer =
                new GatewayKiller(bot, plan.kills(), ledger, plan.workDir().resolve("data"), moveOn)) {
            killer.start();
            for (long n = ledger.first(); n < ledger.first() + Math.min(users, ledger.count()); n++) send(ledger, n);
            return finish(ledger, bot, killer);
        }
    }

    /** Messages at a fixed rate, round-robin over the users, whether or not earlier ones were answered. */
    private ReplyLedger.Outcome openLoop(ReplyLedger ledger, BotProcess bot, double[] maxLagMs)
            throws InterruptedException, IOException {
        replies.phase(ledger, number -> {});
        long period = (long) (1e9 / plan.openLoopRate());
        long start = System.nanoTime();
        long worst = 0;
        for (int k = 0; k < ledger.count(); k++) {
            long due = start + k * period;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) LockSupport.parkNanos(wait);
            worst = Math.max(worst, System.nanoTime() - due);
            send(ledger, ledger.first() + k);
        }
        maxLagMs[0] = worst / 1e6;
        return finish(ledger, bot, null);
    }

    /**
     * Waits until every message is answered (or, in a kill test, given up on as listed lost), then listens for
     * {@code settle} more; {@code killer} is null outside a kill test. The kill test's last restart is finished before
     * the settle time starts.
     */
    private ReplyLedger.Outcome finish(ReplyLedger ledger, BotProcess bot, GatewayKiller killer)
            throws InterruptedException, IOException {
        // a phase may take as long as it needs while replies keep coming (or the gateway restarts); it ends when none
        // came for the timeout
        long deadline = System.nanoTime() + plan.timeout().toNanos();
        int seen = ledger.settledCount();
        while (!ledger.awaitSettled(Duration.ofMillis(100))) {
            bot.checkAlive();
            if (killer != null) {
                killer.check();
                killer.rescue();
            }
            if (ledger.settledCount() != seen || bot.restarting()) {
                seen = ledger.settledCount();
                deadline = System.nanoTime() + plan.timeout().toNanos();
            }
            if (System.nanoTime() > deadline) break;
        }
        if (killer != null) {
            killer.close();
            killer.check();
        }
        Thread.sleep(plan.settle());
        return ledger.outcome();
    }

    private volatile Soak soak;
    private volatile ReplyLedger measuredLedger;
    private volatile Exception housekeepingFailure;

    /** Off the sender's and the fakes' threads: trims the fakes and takes the soak's samples (jcmd takes a while). */
    private void keepHouse() {
        int trimmedAt = 0;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(100);
                if (replies.total() - trimmedAt >= TRIM_EVERY) {
                    trimmedAt = replies.total();
                    telegram.forgetHistory(KEEP_PER_CHAT);
                    model.reset();
                }
                Soak s = soak;
                if (s != null) s.poll();
            }
        } catch (InterruptedException stopped) {
            // the run is over
        } catch (IOException | RuntimeException e) {
            housekeepingFailure = e;
        }
    }

    private void send(ReplyLedger ledger, long number) {
        int user = (int) ((number - ledger.first()) % plan.users());
        // a message given up on may still be answered late: its user's next one goes out once
        if (!ledger.sent(number, System.nanoTime())) return;
        telegram.sendText(chats.get(user), people.get(user), ReplyLedger.text(number, user, plan.shortMessages()));
    }

    private double awaitFirstPoll(ChildJvm child) throws IOException, InterruptedException {
        long deadline = child.startedNanos() + Duration.ofSeconds(60).toNanos();
        while (telegram.callTimes("getUpdates").isEmpty()) {
            if (!child.alive()) throw new IOException("the echo bot exited at start:\n" + child.logTail(40));
            if (System.nanoTime() > deadline)
                throw new IOException("the echo bot did not poll within 60 s:\n" + child.logTail(40));
            Thread.sleep(2);
        }
        return (System.nanoTime() - child.startedNanos()) / 1e6;
    }

    private static String lastUserText(JsonNode body) {
        JsonNode messages = body.path("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode m = messages.get(i);
            if (!"user".equals(m.path("role").asText())) continue;
            JsonNode c = m.path("content");
            if (c.isTextual()) return c.asText();
            StringBuilder text = new StringBuilder();
            for (JsonNode part : c)
                if ("text".equals(part.path("type").asText()))
                    text.append(part.path("text").asText());
            return text.toString();
        }
        return "";
    }

    /** Who answered, and how it was started. */
    private static String botName(ChildJvm.Launch launch) {
        return switch (launch) {
            case ChildJvm.Launch.Echo e -> "echo bot";
            case ChildJvm.Launch.GatewayLauncher l -> "gateway (./" + l.script().getFileName() + ")";
            case ChildJvm.Launch.GatewayJar j -> "gateway (java -jar)";
            case ChildJvm.Launch.GatewayClasspath c -> "gateway (classpath)";
        };
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static double mib(long kib) {
        return kib < 0 ? Double.NaN : kib / 1024.0;
    }

    private static void clean(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
