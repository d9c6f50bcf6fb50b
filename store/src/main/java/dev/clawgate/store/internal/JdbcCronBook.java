package dev.clawgate.store.internal;

import dev.clawgate.core.cron.CronBook;
import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.cron.CronTarget;
import dev.clawgate.core.cron.Schedule;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link CronBook} on either SQL dialect: the {@code cron_jobs} table (SPEC AG-5, OP-1). A job's owner is its
 * session row and sender; a fire is claimed by moving {@code next_fire_at} on with a compare-and-set, so two nodes or
 * two restarts never run one fire twice (SPEC OUT-12).
 */
public final class JdbcCronBook implements CronBook {
    private static final String COLUMNS =
            "j.id, " + SessionRows.KEY_COLUMNS + ", j.channel, j.account, j.chat_type, j.reply_target,"
                    + " j.thread_id, j.sender, j.sender_name, j.name, j.prompt, j.schedule_kind, j.schedule_spec, "
                    + "j.zone, j.created_at,"
                    + " j.next_fire_at";
    private static final String FROM = " FROM cron_jobs j JOIN sessions s ON s.id = j.session_id";

    private final Database db;
    private final Clock clock;

    public JdbcCronBook(Database db, Clock clock) {
        this.db = Objects.requireNonNull(db, "db");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Optional<CronJob> add(CronJob job, int maxPerOwner) {
        Objects.requireNonNull(job, "job");
        SessionKey key = SessionRows.normalise(job.session());
        CronTarget t = job.target();
        Schedule s = job.schedule();
        return db.write("cron add", tx -> {
            long sessionId = SessionRows.ensure(tx, key, clock.millis());
            // serialises adds of one session across nodes, so the limit holds (SQLite's writer is already single)
            if (db.dialect() == Dialect.POSTGRESQL)
                tx.list("SELECT id FROM sessions WHERE id = ? FOR UPDATE", rs -> 0, sessionId);
            int owned = tx.first(
                            "SELECT COUNT(*) FROM cron_jobs WHERE session_id = ? AND sender = ?",
                            rs -> rs.getInt(1),
                            sessionId,
                            t.sender())
                    .orElse(0);
            if (owned >= maxPerOwner) return Optional.<CronJob>empty();
            long id = tx.first(
                            "INSERT INTO cron_jobs (session_id, channel, account, chat_type, reply_target, thread_id, "
                                    + "sender,"
                                    + " sender_name, name, prompt, schedule_kind, schedule_spec, zone, created_at, "
                                    + "next_fire_at)"
                                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                            rs -> rs.getLong(1),
                            sessionId,
                            t.channel(),
                            t.account(),
                            t.chatType().wireName(),
                            t.replyTarget(),
                            t.threadId(),
                            t.sender(),
                            t.senderName(),
                            job.name(),
                            job.prompt(),
                            s.kind(),
                            s.spec(),
                            s.zone().getId(),
                            job.createdAt().toEpochMilli(),
                            job.nextFireAt() == null ? null : job.nextFireAt().toEpochMilli())
                    .orElseThrow();
            return Optional.of(new CronJob(id, key, t, job.name(), job.prompt(), s, job.createdAt(), job.nextFireAt()));
        });
    }

    @Override
    public List<CronJob> list(SessionKey session, String sender) {
        SessionKey key = SessionRows.normalise(session);
        return db.read(
                "cron list",
                tx -> tx.list(
                        "SELECT " + COLUMNS + FROM + " WHERE " + SessionRows.KEY_MATCH
                                + " AND j.sender = ? ORDER BY j.id",
                        JdbcCronBook::job,
                        Params.of(SessionRows.keyParams(key), sender)));
    }

    @Override
    public List<CronJob> all() {
        return db.read("cron all", tx -> tx.list("SELECT " + COLUMNS + FROM + " ORDER BY j.id", JdbcCronBook::job));
    }

    @Override
    public boolean remove(long id, SessionKey session, String sender) {
        SessionKey key = SessionRows.normalise(session);
        return db.write(
                "cron remove",
                tx -> tx.update(
                                "DELETE FROM cron_jobs WHERE id = ? AND sender = ? AND session_id ="
                                        + " (SELECT s.id FROM sessions s WHERE " + SessionRows.KEY_MATCH + ")",
                                Params.of(new Object[] {id, sender}, SessionRows.keyParams(key)))
                        > 0);
    }

    @Override
    public boolean remove(long id) {
        return db.write("cron remove", tx -> tx.update("DELETE FROM cron_jobs WHERE id = ?", id) > 0);
    }

    @Override
    public List<CronJob> due(Instant now, int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be positive, got " + limit);
        return db.read(
                "cron due",
                tx -> tx.list(
                        "SELECT " + COLUMNS + FROM
                                + " WHERE j.next_fire_at IS NOT NULL AND j.next_fire_at <= ? ORDER BY j.next_fire_at, "
                                + "j.id LIMIT ?",
                        JdbcCronBook::job,
                        now.toEpochMilli(),
                        limit));
    }

    @Override
    public Optional<Instant> nextFire() {
        return db.read(
                        "cron next",
                        tx -> tx.first("SELECT MIN(next_fire_at) FROM cron_jobs", rs -> {
                            long v = rs.getLong(1);
                            return rs.wasNull() ? Optional.<Instant>empty() : Optional.of(Instant.ofEpochMilli(v));
                        }))
                .flatMap(o -> o);
    }

    @Override
    public boolean claimFire(long id, Instant fireAt, Instant next) {
        return db.write("cron claim", tx -> claim(tx, id, fireAt, next));
    }

    /** The claim's compare-and-set inside the caller's transaction: false, changing nothing, when the fire is taken. */
    static boolean claim(Tx tx, long id, Instant fireAt, Instant next) throws SQLException {
        long at = fireAt.toEpochMilli();
        return next == null
                ? tx.update("DELETE FROM cron_jobs WHERE id = ? AND next_fire_at = ?", id, at) > 0
                : tx.update(
                                "UPDATE cron_jobs SET next_fire_at = ? WHERE id = ? AND next_fire_at = ?",
                                next.toEpochMilli(),
                                id,
                                at)
                        > 0;
    }

    private static CronJob job(ResultSet rs) throws SQLException {
        SessionKey session = SessionRows.key(rs, 2);
        CronTarget target = new CronTarget(
                rs.getString(8),
                rs.getString(9),
                ChatType.fromWire(rs.getString(10)),
                rs.getString(11),
                rs.getString(12),
                rs.getString(13),
                rs.getString(14));
        Instant created = Instant.ofEpochMilli(rs.getLong(20));
        Schedule schedule = Schedule.of(rs.getString(17), rs.getString(18), ZoneId.of(rs.getString(19)), created);
        long next = rs.getLong(21);
        Instant nextFire = rs.wasNull() ? null : Instant.ofEpochMilli(next);
        return new CronJob(
                rs.getLong(1), session, target, rs.getString(15), rs.getString(16), schedule, created, nextFire);
    }
}
