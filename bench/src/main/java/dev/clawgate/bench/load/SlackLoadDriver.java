package dev.clawgate.bench.load;

import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.slack.FakeSlack;
import dev.clawgate.testkit.slack.SlackChannel;
import dev.clawgate.testkit.slack.SlackMessage;
import dev.clawgate.testkit.slack.SlackUser;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The end-to-end load over Slack (issue 17; SPEC CH-4, OUT-12): the gateway as its own process with
 * {@code [channels.slack]} on the Events API, {@code testkit}'s {@link FakeSlack} pushing signed events to its webhook
 * and taking its {@code chat.postMessage} calls, and the fake OpenAI server answering at once, all over loopback HTTP
 * in this JVM. {@code M} users each send in their DM, closed loop (the next message when the last was answered); every
 * text carries a tag {@code #n}, and the run fails unless every message got exactly one reply. Reports replies per
 * second (first send to last reply) and the latency from the post to the reply showing in the fake (read every 2 ms).
 * Per-chat pacing is off as in {@link GatewayConfig}.
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" dev.clawgate.bench.load.SlackLoadDriver \
 *     --messages 1000 --users 50 --warmup 200 [--jar server/target/clawgate.jar] [--results-md FILE]
 * </pre>
 */
public final class SlackLoadDriver {
    private static final Pattern TAG = Pattern.compile("#(\\d+)");
    private static final Duration REPLY_LIMIT = Duration.ofSeconds(60);

    private final Map<Integer, CompletableFuture<Long>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger nextTag = new AtomicInteger();
    private volatile boolean polling = true;

    private SlackLoadDriver() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) a.put(args[i], args[i + 1]);
        int messages = Integer.parseInt(a.getOrDefault("--messages", "1000"));
        int users = Integer.parseInt(a.getOrDefault("--users", "50"));
        int warmup = Integer.parseInt(a.getOrDefault("--warmup", "200"));
        Path jar = Path.of(a.getOrDefault("--jar", "server/target/clawgate.jar"));
        Path work =
                Path.of(a.getOrDefault("--work-dir", "bench/target/slack-load")).toAbsolutePath();
        String md = a.get("--results-md");
        System.exit(new SlackLoadDriver().run(messages, users, warmup, jar, work, md) ? 0 : 1);
    }

    private boolean run(int messages, int users, int warmup, Path jar, Path work, String md) throws Exception {
        deleteTree(work);
        try (FakeSlack slack = FakeSlack.start("load_bot");
                FakeOpenAiServer model = FakeOpenAiServer.start()) {
            model.respondWith(body -> Reply.text("re: " + lastUser(body)));
            int port = freePort();
            Path config = writeConfig(work, port, model.baseUrl(), slack);
            BotProcess bot =
                    BotProcess.start(new ChildJvm.Launch.GatewayJar(jar), List.of(), work, config, List.of(), port);
            try {
                double readyMs = bot.awaitReady();
                slack.deliverEventsTo(URI.create("http://127.0.0.1:" + port + "/webhooks/slack"));
                List<SlackUser> people = new ArrayList<>();
                List<SlackChannel> dms = new ArrayList<>();
                for (int u = 0; u < users; u++) {
                    people.add(slack.user("load" + u));
                    dms.add(slack.dm(people.getLast()));
                }
                Thread poller =
                        Thread.ofPlatform().daemon().name("slack-load-poller").start(() -> poll(slack, dms));
                phase(slack, people, dms, warmup, new ArrayList<>());
                List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
                long cpuBefore = bot.cpuMillis();
                long start = System.nanoTime();
                phase(slack, people, dms, messages, latencies);
                double seconds = (System.nanoTime() - start) / 1e9;
                long cpuMs = bot.cpuMillis() - cpuBefore;
                Thread.sleep(1000);
                polling = false;
                poller.join();
                Map<Integer, Integer> perTag = repliesPerTag(slack, dms);
                return report(md, messages, warmup, users, seconds, cpuMs, readyMs, latencies, perTag, nextTag.get());
            } finally {
                polling = false;
                bot.close();
            }
        }
    }

    /** Prints the run (and appends its table row to {@code md}); true when every message got exactly one reply. */
    private static boolean report(
            String md,
            int messages,
            int warmup,
            int users,
            double seconds,
            long cpuMs,
            double readyMs,
            List<Long> latencies,
            Map<Integer, Integer> perTag,
            int sent)
            throws IOException {
        long once = perTag.values().stream().filter(n -> n == 1).count();
        long twice = perTag.values().stream().filter(n -> n > 1).count();
        boolean ok = once == sent && twice == 0;
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        double perSecond = messages / seconds;
        double cpuPerMessage = (double) cpuMs / messages;
        String verdict = ok ? "yes" : "NO: " + (sent - once - twice) + " unanswered, " + twice + " twice";
        String row = String.format(
                Locale.ROOT,
                "| slack, events API | gateway (java -jar) | closed | %d / %d | %.0f"
                        + " | %.2f | %.2f | %.2f | %.0f | %.3f | %s |",
                messages,
                users,
                perSecond,
                pct(sorted, 50),
                pct(sorted, 95),
                pct(sorted, 99),
                readyMs,
                cpuPerMessage,
                verdict);
        System.out.printf(
                Locale.ROOT,
                "Slack load: %d messages (+%d warmup) from %d users in %.2f s: %.0f replies/s;"
                        + " p50 %.2f ms, p95 %.2f, p99 %.2f; ready %.0f ms; gateway CPU %.3f ms/message;"
                        + " every message once: %s%n",
                messages,
                warmup,
                users,
                seconds,
                perSecond,
                pct(sorted, 50),
                pct(sorted, 95),
                pct(sorted, 99),
                readyMs,
                cpuPerMessage,
                ok);
        System.out.println(row);
        if (md != null) {
            Files.writeString(Path.of(md), row + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        return ok;
    }

    /** {@code count} messages, closed loop: each user sends the next when its last was answered. */
    private void phase(FakeSlack slack, List<SlackUser> people, List<SlackChannel> dms, int count, List<Long> latencies)
            throws InterruptedException {
        int last = nextTag.get() + count;
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int u = 0; u < people.size(); u++) {
            SlackUser user = people.get(u);
            SlackChannel dm = dms.get(u);
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    for (int tag = nextTag.getAndIncrement(); tag < last; tag = nextTag.getAndIncrement()) {
                        CompletableFuture<Long> answered = new CompletableFuture<>();
                        pending.put(tag, answered);
                        long t0 = System.nanoTime();
                        slack.post(dm, user, "#" + tag + " hello");
                        latencies.add(answered.get(REPLY_LIMIT.toSeconds(), TimeUnit.SECONDS) - t0);
                    }
                } catch (Exception e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) t.join();
        // the counter went one past the end for each user that stopped
        nextTag.set(last);
        if (!failures.isEmpty()) {
            throw new IllegalStateException(
                    failures.size() + " users got no reply within " + REPLY_LIMIT, failures.getFirst());
        }
    }

    private void poll(FakeSlack slack, List<SlackChannel> dms) {
        while (polling) {
            long now = System.nanoTime();
            for (SlackChannel dm : dms) {
                for (SlackMessage m : slack.botMessages(dm)) {
                    Matcher t = TAG.matcher(m.text());
                    if (!t.find()) continue;
                    CompletableFuture<Long> f = pending.remove(Integer.parseInt(t.group(1)));
                    if (f != null) f.complete(now);
                }
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static Map<Integer, Integer> repliesPerTag(FakeSlack slack, List<SlackChannel> dms) {
        Map<Integer, Integer> out = new HashMap<>();
        for (SlackChannel dm : dms) {
            for (SlackMessage m : slack.botMessages(dm)) {
                Matcher t = TAG.matcher(m.text());
                if (t.find()) out.merge(Integer.parseInt(t.group(1)), 1, Integer::sum);
            }
        }
        return out;
    }

    private static double pct(List<Long> sorted, int p) {
        if (sorted.isEmpty()) return 0;
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1)) / 1e6;
    }

    private static Path writeConfig(Path dir, int port, String modelBaseUrl, FakeSlack slack) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("clawgate.toml");
        Files.writeString(file, """
                # written by dev.clawgate.bench.load.SlackLoadDriver
                [gateway]
                data_dir = "%s"
                bind = "127.0.0.1:%d"

                [agent]
                provider = "fake"
                workspace = "%s"

                [providers.fake]
                kind = "openai"
                base_url = "%s"
                api_key = "sk-load-0000"
                model = "echo"

                [channels.webchat]
                enabled = false

                [channels.slack]
                bot_token = "%s"
                signing_secret = "%s"
                api_base = "%s"
                dm_policy = "open"
                allowed_users = ["*"]
                # per-chat pacing off for the load: one final message, no draft edits, no reactions
                stream_mode = "off"
                ack_reactions = false
                """.formatted(
                        dir.resolve("data"),
                        port,
                        dir.resolve("workspace"),
                        modelBaseUrl,
                        slack.botToken(),
                        slack.signingSecret(),
                        slack.apiBase()));
        return file;
    }

    private static String lastUser(com.fasterxml.jackson.databind.JsonNode body) {
        com.fasterxml.jackson.databind.JsonNode msgs = body.path("messages");
        for (int i = msgs.size() - 1; i >= 0; i--) {
            if (msgs.get(i).path("role").asText().equals("user"))
                return msgs.get(i).path("content").asText();
        }
        return "";
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
