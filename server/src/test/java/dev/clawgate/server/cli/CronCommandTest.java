package dev.clawgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.cron.CronTarget;
import dev.clawgate.core.cron.Schedule;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/** {@code clawgate cron list|remove} in-process, on the store of the config's data dir (SPEC AG-5, OP-4). */
class CronCommandTest extends StoreCommandCase {
    private long seed(String sender, String prompt) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        SessionKey s = new SessionKey("telegram", "default", ChatType.DIRECT, "42", null, sender);
        Schedule every = new Schedule.Every(Duration.ofHours(1), now);
        try (Store store = store()) {
            return store.cron()
                    .add(
                            new CronJob(
                                    0,
                                    s,
                                    new CronTarget("telegram", "default", ChatType.DIRECT, "42", null, sender, null),
                                    null,
                                    prompt,
                                    every,
                                    now,
                                    every.next(now).orElseThrow()),
                            5)
                    .orElseThrow()
                    .id();
        }
    }

    @Test
    void listShowsEveryTaskAndRemoveDeletesOne() {
        // SPEC AG-5, OP-4: the owner sees and removes every scheduled task
        long tea = seed("alice", "make tea");
        seed("bob", "water plants");
        CliRunner.Result list = CliRunner.run("cron", "list", "--config", config.toString());
        assertThat(list.exit()).isZero();
        assertThat(list.out().lines()).hasSize(3);
        assertThat(list.out()).contains("telegram_42_alice by alice", "every 1 h", "make tea", "water plants");

        CliRunner.Result removed = CliRunner.run("cron", "remove", String.valueOf(tea), "--config", config.toString());
        assertThat(removed.exit()).isZero();
        assertThat(removed.out()).contains("Removed scheduled task " + tea);
        try (Store store = store()) {
            assertThat(store.cron().all()).extracting(CronJob::prompt).containsExactly("water plants");
        }
    }

    @Test
    void removingAnUnknownTaskIsExitTwoWithOneLine() {
        // SPEC OP-4: usage errors exit 2 with one line on stderr
        CliRunner.Result r = CliRunner.run("cron", "remove", "99", "--config", config.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("clawgate: no scheduled task 99; see 'clawgate cron list'");
        assertThat(CliRunner.run("cron", "list", "--config", config.toString()).out())
                .contains("No scheduled tasks.");
    }
}
