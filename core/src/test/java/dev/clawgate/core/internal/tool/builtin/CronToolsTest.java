package dev.clawgate.core.internal.tool.builtin;

import static dev.clawgate.core.internal.tool.builtin.ToolFixtures.args;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.config.CronSettings;
import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.testing.InMemoryCronBook;
import dev.clawgate.core.testing.ManualClock;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CronToolsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2025-03-01T10:00:00Z"));
    private final InMemoryCronBook book = new InMemoryCronBook();
    private final AtomicInteger wakes = new AtomicInteger();
    private CronSettings settings = new CronSettings(true, 3, Duration.ofMinutes(5), Duration.ofHours(1));
    private final List<Tool> tools = BuiltinTools.cron(book, settings, () -> settings, clock, wakes::incrementAndGet);

    private static final InboundMessage GROUP_ALICE = new InboundMessage(
            "m1",
            "telegram",
            "default",
            "alice",
            "Alice",
            "-100",
            null,
            null,
            ChatType.GROUP,
            true,
            Instant.parse("2025-03-01T10:00:00Z"),
            "hi",
            List.of(),
            null);
    private static final SessionKey GROUP = SessionKey.of(GROUP_ALICE);

    private ToolResult run(String name, InboundMessage origin, Object... args) throws Exception {
        Tool tool =
                tools.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
        ToolContext ctx = new ToolContext(
                Path.of("."), SessionKey.of(origin), CancelToken.none(), null, Memory.NONE, null, origin);
        return tool.execute(args(args), ctx);
    }

    private static InboundMessage from(String sender) {
        return new InboundMessage(
                "m2",
                "telegram",
                "default",
                sender,
                null,
                "-100",
                null,
                null,
                ChatType.GROUP,
                true,
                Instant.parse("2025-03-01T10:00:00Z"),
                "hi",
                List.of(),
                null);
    }

    @Test
    void aJobIsStoredForTheAskingSenderInThisConversationWithItsFirstFire() throws Exception {
        // SPEC AG-5: cron_add schedules an agent turn delivered to this conversation
        ToolResult r = run(
                "cron_add",
                GROUP_ALICE,
                "prompt",
                "water the plants",
                "cron",
                "0 9 * * *",
                "tz",
                "UTC",
                "name",
                "plants",
                "delivery",
                Map.of("channel", "telegram", "to", "-100"));
        assertThat(r.error()).as(r.output()).isFalse();
        assertThat(r.output())
                .isEqualTo("Scheduled task 1: cron \"0 9 * * *\" (UTC), next run at 2025-03-02T09:00:00Z.");
        CronJob job = book.all().getFirst();
        assertThat(job.session()).isEqualTo(GROUP);
        assertThat(job.target().sender()).isEqualTo("alice");
        assertThat(job.target().replyTarget()).isEqualTo("-100");
        assertThat(job.nextFireAt()).isEqualTo(Instant.parse("2025-03-02T09:00:00Z"));
        assertThat(job.fireText()).isEqualTo("[Scheduled task \"plants\"] water the plants");
        assertThat(wakes).hasValue(1);
    }

    @Test
    void everyNMinutesAndAOneShotTimeAreSchedulesToo() throws Exception {
        // SPEC AG-5
        assertThat(run("cron_add", GROUP_ALICE, "prompt", "p", "every_minutes", 30)
                        .output())
                .contains("every 30 min, next run at 2025-03-01T10:30:00Z");
        assertThat(run("cron_add", GROUP_ALICE, "prompt", "p", "at", "2025-03-01T12:00:00+01:00")
                        .output())
                .contains("once at 2025-03-01T11:00:00Z");
        assertThat(book.all()).extracting(j -> j.schedule().kind()).containsExactly("every", "at");
    }

    @Test
    void listAndRemoveSeeOnlyTheSendersOwnJobsInThisConversation() throws Exception {
        // SPEC AG-5: jobs are scoped to the session and sender that created them
        run("cron_add", GROUP_ALICE, "prompt", "alice's", "every_minutes", 60);
        run("cron_add", from("bob"), "prompt", "bob's", "every_minutes", 60);
        assertThat(run("cron_list", GROUP_ALICE).output())
                .contains("id 1:", "alice's")
                .doesNotContain("bob's");
        assertThat(run("cron_list", from("bob")).output())
                .contains("id 2:", "bob's")
                .doesNotContain("alice's");

        ToolResult refused = run("cron_remove", from("bob"), "id", 1);
        assertThat(refused.error()).isTrue();
        assertThat(refused.output()).contains("no scheduled task 1");
        assertThat(book.all()).hasSize(2);

        assertThat(run("cron_remove", GROUP_ALICE, "id", 1).output()).isEqualTo("Removed scheduled task 1.");
        assertThat(book.all()).extracting(CronJob::id).containsExactly(2L);
        assertThat(run("cron_list", GROUP_ALICE).output()).isEqualTo("No scheduled tasks.");
    }

    @Test
    void theLimitPerSenderAndTheMinimumIntervalAreEnforced() throws Exception {
        // SPEC AG-5: cron.max_jobs_per_session and cron.min_interval
        for (int i = 0; i < 3; i++)
            assertThat(run("cron_add", GROUP_ALICE, "prompt", "p" + i, "every_minutes", 5)
                            .error())
                    .isFalse();
        ToolResult full = run("cron_add", GROUP_ALICE, "prompt", "p4", "every_minutes", 5);
        assertThat(full.error()).isTrue();
        assertThat(full.output()).contains("already has 3 scheduled tasks");
        assertThat(run("cron_add", from("bob"), "prompt", "bob", "every_minutes", 5)
                        .error())
                .isFalse();

        ToolResult often = run("cron_add", from("carol"), "prompt", "p", "every_minutes", 4);
        assertThat(often.output())
                .isEqualTo("that runs every 4 min; the shortest interval allowed is 5 min (cron.min_interval)");
        ToolResult cronOften = run("cron_add", from("carol"), "prompt", "p", "cron", "0,2 * * * *");
        assertThat(cronOften.error()).isTrue();
        assertThat(cronOften.output()).contains("every 2 min");
        assertThat(book.all()).hasSize(4);
    }

    @Test
    void badSchedulesAndDeliveryElsewhereAreRefusedWithAReason() throws Exception {
        // SPEC AG-5: bad input gets a clear error and stores nothing
        assertThat(run("cron_add", GROUP_ALICE, "prompt", "p").output())
                .contains("exactly one of cron, every_minutes or at (got 0)");
        assertThat(run("cron_add", GROUP_ALICE, "prompt", "p", "cron", "* * *", "every_minutes", 10)
                        .output())
                .contains("(got 2)");
        assertThat(run("cron_add", GROUP_ALICE, "prompt", "p", "cron", "61 * * * *")
                        .output())
                .contains("minute field");
        assertThat(run("cron_add", GROUP_ALICE, "prompt", "p", "at", "2025-03-01T09:00:00Z")
                        .output())
                .contains("never fires after now");
        assertThat(run("cron_add", GROUP_ALICE, "prompt", "p", "at", "tomorrow").output())
                .contains("not an ISO-8601 time");
        assertThat(run("cron_add", GROUP_ALICE, "prompt", "p", "every_minutes", 10, "tz", "Mars/Olympus")
                        .output())
                .contains("not a time zone");
        assertThat(run("cron_add", GROUP_ALICE, "prompt", "  ", "every_minutes", 10)
                        .output())
                .contains("prompt is empty");
        ToolResult elsewhere = run(
                "cron_add",
                GROUP_ALICE,
                "prompt",
                "p",
                "every_minutes",
                10,
                "delivery",
                Map.of("channel", "telegram", "to", "-999"));
        assertThat(elsewhere.error()).isTrue();
        assertThat(elsewhere.output())
                .contains("delivered to the conversation that scheduled it (channel=telegram, to=-100)");
        assertThat(book.all()).isEmpty();
        assertThat(wakes).hasValue(0);
    }

    @Test
    void withoutAConversationTheToolsSayWhy() throws Exception {
        // SPEC AG-5
        Tool add = tools.getFirst();
        ToolResult r = add.execute(args("prompt", "p", "every_minutes", 10), ToolFixtures.context(Path.of(".")));
        assertThat(r.error()).isTrue();
        assertThat(r.output()).contains("needs a conversation");
    }

    @Test
    void cronToolsAreLeftOutWhenCronIsDisabled() {
        // SPEC AG-5: cron.enabled = false
        CronSettings off = new CronSettings(false, 3, Duration.ofMinutes(1), Duration.ofHours(1));
        assertThat(BuiltinTools.cron(book, off, () -> off, clock, () -> {})).isEmpty();
        assertThat(tools).extracting(Tool::name).containsExactly("cron_add", "cron_list", "cron_remove");
    }
}
