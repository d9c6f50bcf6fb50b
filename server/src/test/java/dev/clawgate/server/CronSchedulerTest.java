package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.clawgate.core.config.CronSettings;
import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.cron.CronTarget;
import dev.clawgate.core.cron.FireSink;
import dev.clawgate.core.cron.Schedule;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.testing.ManualClock;
import dev.clawgate.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The scheduler on a hand-moved clock and a real SQLite store: when a job fires, and that a fire runs at most once. */
class CronSchedulerTest {
    private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");
    private static final SessionKey SESSION = new SessionKey("telegram", "default", ChatType.DIRECT, "42", null, "42");
    private static final CronSettings SETTINGS = new CronSettings(true, 10, Duration.ofMinutes(1), Duration.ofHours(1));

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(T0);
    private final List<InboundMessage> accepted = new CopyOnWriteArrayList<>();
    /** The store's one-transaction claim and record, as the gateway's Inbox does it, minus the dispatcher. */
    private final FireSink inbox = fire -> {
        Optional<InboxRecord> r =
                this.store.claimFireAndRecord(fire, SESSION, fire.message().id(), Duration.ofMinutes(20));
        r.ifPresent(rec -> accepted.add(rec.message()));
        return r;
    };

    private final Logger logger = (Logger) LoggerFactory.getLogger(CronScheduler.class);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private Store store;

    @BeforeEach
    void open() {
        logs.start();
        logger.addAppender(logs);
        store = Stores.openSqlite(dir.resolve("clawgate.db"), clock);
    }

    @AfterEach
    void close() {
        logger.detachAppender(logs);
        store.close();
    }

    private CronScheduler scheduler(String... runningChannels) {
        List<String> running = runningChannels.length == 0 ? List.of("telegram") : List.of(runningChannels);
        return new CronScheduler(store.cron(), inbox, running::contains, () -> SETTINGS, clock);
    }

    private CronJob add(Schedule schedule) {
        CronTarget target = new CronTarget("telegram", "default", ChatType.DIRECT, "42", null, "42", "Alice");
        return store.cron()
                .add(
                        new CronJob(
                                0,
                                SESSION,
                                target,
                                "tea",
                                "make tea",
                                schedule,
                                T0,
                                schedule.next(T0).orElseThrow()),
                        10)
                .orElseThrow();
    }

    private List<String> warnings() {
        return logs.list.stream()
                .filter(e -> e.getLevel().toString().equals("WARN"))
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void aDueJobFiresOnceAsTheSendersMessageInItsChatKeyedByJobAndTime() {
        // SPEC AG-5 (scheduled turns delivered to a channel target), OUT-12 (turn id = job id + fire time)
        CronJob job = add(new Schedule.Every(Duration.ofMinutes(15), T0));
        CronScheduler s = scheduler();
        clock.advance(Duration.ofMinutes(14));
        assertThat(s.runDue()).isZero();
        clock.advance(Duration.ofMinutes(1));
        assertThat(s.runDue()).isEqualTo(1);
        assertThat(s.runDue()).isZero();

        InboundMessage m = accepted.getFirst();
        assertThat(m.id())
                .isEqualTo("cron:" + job.id() + ":"
                        + T0.plus(Duration.ofMinutes(15)).toEpochMilli());
        assertThat(m.channel()).isEqualTo("telegram");
        assertThat(m.replyTarget()).isEqualTo("42");
        assertThat(m.sender()).isEqualTo("42");
        assertThat(m.text()).isEqualTo("[Scheduled task \"tea\"] make tea");
        assertThat(store.cron().all()).extracting(CronJob::nextFireAt).containsExactly(T0.plus(Duration.ofMinutes(30)));
    }

    @Test
    void aRestartedSchedulerDoesNotRunAFireTheFirstOneClaimed() {
        // SPEC OUT-12: the fire is recorded in the store before it runs
        add(new Schedule.Every(Duration.ofMinutes(15), T0));
        clock.advance(Duration.ofMinutes(15));
        assertThat(scheduler().runDue()).isEqualTo(1);
        store.close();
        store = Stores.openSqlite(dir.resolve("clawgate.db"), clock);
        assertThat(scheduler().runDue()).isZero();
        assertThat(accepted).hasSize(1);
    }

    @Test
    void fireMissedWithinMaxAgeRunsOnceNotOncePerMissedPeriod() {
        // SPEC OUT-12: on restart a missed fire within max_age runs once
        add(new Schedule.Every(Duration.ofMinutes(15), T0));
        clock.advance(Duration.ofMinutes(59));
        assertThat(scheduler().runDue()).isEqualTo(1);
        assertThat(accepted).hasSize(1);
        assertThat(accepted.getFirst().timestamp()).isEqualTo(T0.plus(Duration.ofMinutes(15)));
        // the next fire is the next period after now, not the missed ones
        assertThat(store.cron().all()).extracting(CronJob::nextFireAt).containsExactly(T0.plus(Duration.ofMinutes(60)));
    }

    @Test
    void aFireMissedByMoreThanMaxAgeIsSkippedAndLogged() {
        // SPEC OUT-12: older missed fires are skipped and logged
        CronJob daily = add(new Schedule.Every(Duration.ofDays(1), T0));
        CronJob once = add(new Schedule.At(T0.plus(Duration.ofMinutes(5))));
        clock.advance(Duration.ofDays(1).plus(Duration.ofHours(2)));
        assertThat(scheduler().runDue()).isZero();
        assertThat(accepted).isEmpty();
        assertThat(warnings())
                .anySatisfy(
                        w -> assertThat(w).contains("job " + daily.id() + " missed its run at", "skipped, next run at"))
                .anySatisfy(w -> assertThat(w).contains("job " + once.id() + " missed", "(it was its only run)"));
        assertThat(store.cron().all())
                .extracting(CronJob::id, CronJob::nextFireAt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(daily.id(), T0.plus(Duration.ofDays(2))));
    }

    @Test
    void aJobForAChannelThatIsNotRunningIsSkippedWithAWarning() {
        // SPEC AG-5, CH-0: never silence
        CronJob job = add(new Schedule.Every(Duration.ofMinutes(15), T0));
        clock.advance(Duration.ofMinutes(15));
        assertThat(scheduler("webchat").runDue()).isZero();
        assertThat(accepted).isEmpty();
        assertThat(warnings())
                .anySatisfy(w ->
                        assertThat(w).contains("job " + job.id() + " is for channel telegram, which is not running"));
    }

    @Test
    void aFireIsInTheInboxTheMomentItsClaimCommits() {
        // SPEC IN-4, OUT-12: claim and inbox record are one commit, so a crash after it leaves a record a restart runs
        CronJob job = add(new Schedule.Every(Duration.ofMinutes(15), T0));
        clock.advance(Duration.ofMinutes(15));
        assertThat(scheduler().runDue()).isEqualTo(1);
        assertThat(store.inbox().unfinished()).singleElement().satisfies(r -> {
            assertThat(r.state()).isEqualTo(InboxState.RECEIVED);
            assertThat(r.message().id()).isEqualTo(CronTarget.messageId(job.id(), T0.plus(Duration.ofMinutes(15))));
        });
    }

    @Test
    void aStoreFailureWhileRecordingLeavesTheFireDueAndTheNextPassRunsIt() throws Exception {
        // SPEC IN-4 (nothing accepted is lost), OUT-12: the claim rolls back with the failed inbox insert
        CronJob job = add(new Schedule.Every(Duration.ofMinutes(15), T0));
        Instant fireAt = T0.plus(Duration.ofMinutes(15));
        clock.advance(Duration.ofMinutes(15));
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("clawgate.db"));
                java.sql.Statement st = c.createStatement()) {
            st.execute("CREATE TRIGGER fail_cron_inbox BEFORE INSERT ON inbox BEGIN SELECT RAISE(ABORT, 'injected "
                    + "failure'); END");
            CronScheduler s = scheduler();
            org.assertj.core.api.Assertions.assertThatThrownBy(s::runDue)
                    .isInstanceOf(dev.clawgate.core.store.StoreException.class);
            assertThat(store.cron().all()).extracting(CronJob::nextFireAt).containsExactly(fireAt);
            assertThat(store.inbox().counts().values()).allMatch(n -> n == 0L);

            st.execute("DROP TRIGGER fail_cron_inbox");
            assertThat(s.runDue()).isEqualTo(1);
        }
        assertThat(accepted).extracting(InboundMessage::id).containsExactly(CronTarget.messageId(job.id(), fireAt));
        assertThat(store.cron().all())
                .extracting(CronJob::nextFireAt)
                .containsExactly(fireAt.plus(Duration.ofMinutes(15)));
    }
}
