package dev.clawgate.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.cron.CronBook;
import dev.clawgate.core.cron.CronExpression;
import dev.clawgate.core.cron.CronFire;
import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.cron.CronTarget;
import dev.clawgate.core.cron.Schedule;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The cron half of the Store contract (SPEC AG-5, OP-1, OUT-12); runs on every dialect. */
abstract class CronContract extends StoreTestBase {
    static final SessionKey ROOM = new SessionKey("telegram", "default", ChatType.GROUP, "-100", "7", null);

    CronJob job(SessionKey session, String sender, Schedule schedule, Instant next) {
        CronTarget target = new CronTarget(
                session.channel(),
                session.account(),
                session.chatType(),
                session.replyTarget(),
                session.threadId(),
                sender,
                sender.toUpperCase());
        return new CronJob(0, session, target, "n-" + sender, "ask " + sender, schedule, clock.instant(), next);
    }

    Schedule hourly() {
        return new Schedule.Every(Duration.ofHours(1), clock.instant());
    }

    @Test
    void aStoredJobReadsBackWithEveryFieldAndItsRow() {
        // SPEC AG-5, OP-1: the store holds cron
        CronBook book = open().cron();
        Schedule cron = new Schedule.Cron(CronExpression.parse("0 9 * * MON-FRI"), ZoneId.of("Europe/Berlin"));
        Instant next = cron.next(clock.instant()).orElseThrow();
        CronJob stored = book.add(job(ROOM, "alice", cron, next), 5).orElseThrow();

        assertThat(stored.id()).isPositive();
        assertThat(book.all()).containsExactly(stored);
        assertThat(book.list(ROOM, "alice")).containsExactly(stored);
        assertThat(stored.target().threadId()).isEqualTo("7");
        assertThat(stored.target().senderName()).isEqualTo("ALICE");
        assertThat(rows("SELECT sender, schedule_kind, schedule_spec, zone, next_fire_at FROM cron_jobs"))
                .containsExactly(List.of("alice", "cron", "0 9 * * MON-FRI", "Europe/Berlin", next.toEpochMilli()));
    }

    @Test
    void listAndRemoveAreScopedToTheOwnerSessionAndSender() {
        // SPEC AG-5: cron_list and cron_remove see only the creator's jobs
        CronBook book = open().cron();
        CronJob alices = book.add(job(ROOM, "alice", hourly(), clock.instant().plusSeconds(3600)), 5)
                .orElseThrow();
        CronJob bobs = book.add(job(ROOM, "bob", hourly(), clock.instant().plusSeconds(3600)), 5)
                .orElseThrow();
        CronJob dm = book.add(job(ALICE, "alice", hourly(), clock.instant().plusSeconds(3600)), 5)
                .orElseThrow();

        assertThat(book.list(ROOM, "alice")).containsExactly(alices);
        assertThat(book.list(ALICE, "alice")).containsExactly(dm);
        assertThat(book.remove(alices.id(), ROOM, "bob")).isFalse();
        assertThat(book.remove(alices.id(), ALICE, "alice")).isFalse();
        assertThat(book.all()).hasSize(3);
        assertThat(book.remove(alices.id(), ROOM, "alice")).isTrue();
        assertThat(book.all()).containsExactly(bobs, dm);
        assertThat(book.remove(bobs.id())).isTrue();
        assertThat(book.remove(bobs.id())).isFalse();
        assertThat(rows("SELECT id FROM cron_jobs")).containsExactly(List.of(dm.id()));
    }

    @Test
    void anOwnerAtTheLimitGetsNoNewJobEvenUnderConcurrentAdds() throws Exception {
        // SPEC AG-5: cron.max_jobs_per_session holds when adds race
        Store store = open();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> adds = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                adds.add(pool.submit(() -> store.cron()
                        .add(job(ROOM, "alice", hourly(), clock.instant().plusSeconds(60)), 3)
                        .isPresent()));
            }
            int added = 0;
            for (Future<Boolean> f : adds) added += f.get() ? 1 : 0;
            assertThat(added).isEqualTo(3);
        } finally {
            pool.shutdownNow();
        }
        assertThat(rows("SELECT COUNT(*) FROM cron_jobs")).containsExactly(List.of(3L));
    }

    @Test
    void dueJobsComeEarliestFirstAndAFireIsClaimedOnce() {
        // SPEC OUT-12: a fire is recorded before it runs, and only one claimer wins it
        CronBook book = open().cron();
        Instant t0 = clock.instant();
        CronJob late =
                book.add(job(ROOM, "alice", hourly(), t0.plusSeconds(120)), 5).orElseThrow();
        CronJob early =
                book.add(job(ROOM, "bob", hourly(), t0.plusSeconds(60)), 5).orElseThrow();
        CronJob once = book.add(job(ALICE, "alice", new Schedule.At(t0.plusSeconds(90)), t0.plusSeconds(90)), 5)
                .orElseThrow();

        assertThat(book.nextFire()).contains(t0.plusSeconds(60));
        assertThat(book.due(t0.plusSeconds(59), 10)).isEmpty();
        assertThat(book.due(t0.plusSeconds(120), 10))
                .extracting(CronJob::id)
                .containsExactly(early.id(), once.id(), late.id());
        assertThat(book.due(t0.plusSeconds(120), 2)).extracting(CronJob::id).containsExactly(early.id(), once.id());

        assertThat(book.claimFire(early.id(), t0.plusSeconds(60), t0.plusSeconds(3660)))
                .isTrue();
        assertThat(book.claimFire(early.id(), t0.plusSeconds(60), t0.plusSeconds(3660)))
                .isFalse();
        assertThat(rows("SELECT next_fire_at FROM cron_jobs WHERE id = ?", early.id()))
                .containsExactly(List.of(t0.plusSeconds(3660).toEpochMilli()));

        // a one-shot job is gone once its fire is claimed
        assertThat(book.claimFire(once.id(), t0.plusSeconds(90), null)).isTrue();
        assertThat(rows("SELECT COUNT(*) FROM cron_jobs WHERE id = ?", once.id()))
                .containsExactly(List.of(0L));
        assertThat(book.due(t0.plusSeconds(120), 10)).extracting(CronJob::id).containsExactly(late.id());
    }

    @Test
    void aClaimSurvivesReopeningTheStore() {
        // SPEC OUT-12: across restarts
        Store first = open();
        Instant t0 = clock.instant();
        CronJob j = first.cron()
                .add(job(ROOM, "alice", hourly(), t0.plusSeconds(60)), 5)
                .orElseThrow();
        assertThat(first.cron().claimFire(j.id(), t0.plusSeconds(60), t0.plusSeconds(3660)))
                .isTrue();
        first.close();

        Store second = open();
        assertThat(second.cron().claimFire(j.id(), t0.plusSeconds(60), t0.plusSeconds(3660)))
                .isFalse();
        assertThat(second.cron().all()).extracting(CronJob::nextFireAt).containsExactly(t0.plusSeconds(3660));
        assertThat(second.cron().nextFire()).contains(t0.plusSeconds(3660));
    }

    @Test
    void anEmptyBookHasNoNextFire() {
        // SPEC AG-5
        assertThat(open().cron().nextFire()).isEmpty();
    }

    /** Claims and records a fire of a job in ROOM as the gateway does; its dedupe key is its message id. */
    Optional<InboxRecord> claimAndRecord(Store store, CronFire fire) {
        return store.claimFireAndRecord(fire, ROOM, fire.message().id(), TTL);
    }

    @Test
    void aFireIsClaimedAndItsMessageRecordedInOneCommit() {
        // SPEC AG-5, IN-4 (recorded = inbox row + dedupe key committed), OUT-12 (turn id = job id + fire time)
        Store store = open();
        Instant t0 = clock.instant();
        CronJob j = store.cron()
                .add(job(ROOM, "alice", hourly(), t0.plusSeconds(60)), 5)
                .orElseThrow();
        CronFire fire = CronFire.of(j, t0.plusSeconds(3660));

        InboxRecord r = claimAndRecord(store, fire).orElseThrow();

        assertThat(r.state()).isEqualTo(InboxState.RECEIVED);
        assertThat(r.message().id())
                .isEqualTo("cron:" + j.id() + ":" + t0.plusSeconds(60).toEpochMilli());
        assertThat(store.inbox().unfinished()).extracting(InboxRecord::id).containsExactly(r.id());
        assertThat(rows("SELECT message_id, sender, reply_target, thread_id, state FROM inbox"))
                .containsExactly(List.of(fire.message().id(), "alice", "-100", "7", "received"));
        assertThat(rows("SELECT key FROM dedupe"))
                .containsExactly(List.of(fire.message().id()));
        assertThat(rows("SELECT next_fire_at FROM cron_jobs WHERE id = ?", j.id()))
                .containsExactly(List.of(t0.plusSeconds(3660).toEpochMilli()));
        // the same fire again is a lost claim: nothing changes
        assertThat(claimAndRecord(store, fire)).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM inbox")).isEqualTo(1);
    }

    @Test
    void aFailedInboxInsertLeavesTheFireDueAndTheOneShotJobInPlace() throws Exception {
        // SPEC IN-4, OUT-12: nothing accepted is ever lost; the claim rolls back with the record
        Store store = open();
        Instant t0 = clock.instant();
        CronJob every = store.cron()
                .add(job(ROOM, "alice", hourly(), t0.plusSeconds(60)), 5)
                .orElseThrow();
        CronJob once = store.cron()
                .add(job(ROOM, "bob", new Schedule.At(t0.plusSeconds(90)), t0.plusSeconds(90)), 5)
                .orElseThrow();
        backend().failInboxInsertsOfMessagesStartingWith("cron:");

        assertThatThrownBy(() -> claimAndRecord(store, CronFire.of(every, t0.plusSeconds(3660))))
                .isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> claimAndRecord(store, CronFire.of(once, null))).isInstanceOf(StoreException.class);

        assertThat(store.cron().all())
                .extracting(CronJob::id, CronJob::nextFireAt)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(every.id(), t0.plusSeconds(60)),
                        org.assertj.core.groups.Tuple.tuple(once.id(), t0.plusSeconds(90)));
        assertThat(count("SELECT COUNT(*) FROM inbox")).isZero();
        assertThat(count("SELECT COUNT(*) FROM dedupe")).isZero();
        // so the fire is still there to be taken once the store works again
        assertThat(store.cron().due(t0.plusSeconds(90), 10))
                .extracting(CronJob::id)
                .containsExactly(every.id(), once.id());
    }

    @Test
    void aLostClaimRecordsNothing() {
        // SPEC OUT-12: another node (or an earlier run) took the fire; it must not run here
        Store store = open();
        Instant t0 = clock.instant();
        CronJob j = store.cron()
                .add(job(ROOM, "alice", hourly(), t0.plusSeconds(60)), 5)
                .orElseThrow();
        assertThat(store.cron().claimFire(j.id(), t0.plusSeconds(60), t0.plusSeconds(3660)))
                .isTrue();

        assertThat(claimAndRecord(store, CronFire.of(j, t0.plusSeconds(3660)))).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM inbox")).isZero();
        assertThat(count("SELECT COUNT(*) FROM dedupe")).isZero();
        assertThat(rows("SELECT next_fire_at FROM cron_jobs"))
                .containsExactly(List.of(t0.plusSeconds(3660).toEpochMilli()));
    }

    @Test
    void aFireWhoseMessageIsAlreadyRecordedKeepsTheClaimAndAddsNoRow() {
        // SPEC IN-1, OUT-12: the dedupe key cron:<job>:<fire ms> makes a re-claim harmless
        Store store = open();
        Instant t0 = clock.instant();
        CronJob j = store.cron()
                .add(job(ROOM, "alice", hourly(), t0.plusSeconds(60)), 5)
                .orElseThrow();
        CronFire fire = CronFire.of(j, t0.plusSeconds(3660));
        assertThat(store.inbox().record(fire.message(), ROOM, fire.message().id(), TTL))
                .isPresent();

        assertThat(claimAndRecord(store, fire)).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM inbox")).isEqualTo(1);
        assertThat(rows("SELECT next_fire_at FROM cron_jobs"))
                .containsExactly(List.of(t0.plusSeconds(3660).toEpochMilli()));
    }

    @Test
    void concurrentClaimersOfOneFireRecordItOnce() throws Exception {
        // SPEC OP-2, OUT-12: two nodes never both run one fire
        Instant t0 = clock.instant();
        CronJob j = open().cron()
                .add(job(ROOM, "alice", hourly(), t0.plusSeconds(60)), 5)
                .orElseThrow();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> claims = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Store node = open();
                claims.add(pool.submit(() -> claimAndRecord(node, CronFire.of(j, t0.plusSeconds(3660)))
                        .isPresent()));
            }
            int won = 0;
            for (Future<Boolean> f : claims) won += f.get() ? 1 : 0;
            assertThat(won).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(count("SELECT COUNT(*) FROM inbox")).isEqualTo(1);
    }
}
