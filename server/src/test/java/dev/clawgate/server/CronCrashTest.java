package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.cron.CronTarget;
import dev.clawgate.core.cron.Schedule;
import dev.clawgate.core.failpoint.Failpoints;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.server.config.ConfigLoader;
import dev.clawgate.store.Stores;
import dev.clawgate.testkit.openai.FakeOpenAiServer;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway in a child JVM halted ({@code Runtime.halt}, as kill -9) at {@code cron.after_claim}: right after a
 * fire's claim and its inbox record committed, before the dispatcher saw it. The restarted gateway must run that fire
 * once: the claim never outlives a lost record.
 */
class CronCrashTest {
    private static final String TOKEN = "777:cron-crash-token";

    @TempDir
    Path dir;

    @Test
    void aGatewayHaltedRightAfterClaimingAFireRunsItOnceAfterTheRestart() throws Exception {
        // SPEC AG-5 (scheduled turns), IN-4 (recorded = committed; re-run after a crash), OUT-12 (one final reply per
        // fire)
        try (FakeOpenAiServer model = FakeOpenAiServer.start();
                FakeTelegramServer tg = FakeTelegramServer.start(TOKEN, "cronbot")) {
            TelegramUser alice = tg.user(111, "alice");
            TelegramChat dm = tg.privateChat(alice);
            model.enqueue(Reply.text("Tea time, Alice."));
            Path config = dir.resolve("clawgate.toml");
            Files.writeString(config, toml(model.baseUrl(), tg.apiBase()));

            // an hourly job whose fire is already due when the child starts
            Instant due = Instant.now().truncatedTo(ChronoUnit.MILLIS).minusSeconds(1);
            CronJob job;
            try (Store store = Stores.open(null, dir.resolve("data"))) {
                SessionKey session = new SessionKey(
                        "telegram",
                        "default",
                        ChatType.DIRECT,
                        String.valueOf(dm.id()),
                        null,
                        String.valueOf(alice.id()));
                CronTarget target = new CronTarget(
                        "telegram",
                        "default",
                        ChatType.DIRECT,
                        String.valueOf(dm.id()),
                        null,
                        String.valueOf(alice.id()),
                        "alice");
                job = store.cron()
                        .add(
                                new CronJob(
                                        0,
                                        session,
                                        target,
                                        "tea",
                                        "remind alice of tea",
                                        new Schedule.Every(Duration.ofHours(1), due),
                                        due.minusSeconds(3600),
                                        due),
                                10)
                        .orElseThrow();
            }

            Process child = child(config, Failpoints.CRON_AFTER_CLAIM);
            assertThat(child.waitFor(60, TimeUnit.SECONDS))
                    .as("the child halts at the failpoint; log:%n%s", log())
                    .isTrue();
            assertThat(child.exitValue()).as("exit status; log:%n%s", log()).isEqualTo(Failpoints.HALT_STATUS);

            // the claim and the record committed together: the fire moved on and its turn waits in the inbox
            String fireId = CronTarget.messageId(job.id(), due);
            try (Store store = Stores.open(null, dir.resolve("data"))) {
                assertThat(store.cron().all())
                        .extracting(CronJob::nextFireAt)
                        .containsExactly(due.plus(Duration.ofHours(1)));
                assertThat(store.inbox().unfinished())
                        .extracting(r -> r.message().id())
                        .containsExactly(fireId);
            }
            assertThat(model.chatRequests()).isEmpty();
            assertThat(tg.sentTo(dm)).isEmpty();

            Gateway gateway = Gateway.start(new ConfigLoader().load(config, Map.of()), GatewayOptions.with());
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> tg.sentTo(dm).size() >= 1);
                assertThat(tg.sentTo(dm)).extracting(SentMessage::text).containsExactly("Tea time, Alice.");
                assertThat(model.chatRequests())
                        .singleElement()
                        .satisfies(r ->
                                assertThat(r.lastUserText()).contains("[Scheduled task \"tea\"] remind alice of tea"));
                await().until(() -> gateway.store().outbox().counts().get(OutboxState.SENT) == 1L
                        && gateway.store().inbox().counts().get(InboxState.DONE) == 1L);
                // one record in all, run once more than the halted attempt never started: no second fire, no second
                // reply
                assertThat(gateway.store().inbox().unfinished()).isEmpty();
                assertThat(gateway.store().inbox().counts().values().stream()
                                .mapToLong(Long::longValue)
                                .sum())
                        .isEqualTo(1);
                assertThat(tg.sentTo(dm)).hasSize(1);
            } finally {
                gateway.close();
            }
        }
    }

    private String toml(String modelUrl, String telegramApi) {
        return """
                [gateway]
                data_dir = "%s"
                bind = "127.0.0.1:0"

                [agent]
                provider = "fake"
                workspace = "%s"

                [providers.fake]
                kind = "openai"
                base_url = "%s"
                api_key = "sk-test-0000"
                model = "echo"

                [channels.telegram]
                bot_token = "%s"
                api_base = "%s"
                mode = "polling"
                dm_policy = "open"
                allowed_users = ["*"]
                """.formatted(dir.resolve("data"), dir.resolve("workspace"), modelUrl, TOKEN, telegramApi);
    }

    /** {@code clawgate run} in a JVM of its own on this test's classpath, armed at {@code failpoint}. */
    private Process child(Path config, String failpoint) throws Exception {
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx128m",
                "-XX:TieredStopAtLevel=1",
                "-D" + Failpoints.PROPERTY + "=" + failpoint,
                "-cp",
                System.getProperty("java.class.path"),
                dev.clawgate.server.cli.Main.class.getName(),
                "run",
                "--config",
                config.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(dir.resolve("child.log").toFile()));
        pb.environment().remove("CLAWGATE_CONFIG");
        return pb.start();
    }

    private String log() throws Exception {
        Path log = dir.resolve("child.log");
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }
}
