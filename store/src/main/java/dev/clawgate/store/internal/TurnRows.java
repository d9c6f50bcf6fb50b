package dev.clawgate.store.internal;

import dev.clawgate.core.inspect.PhaseJson;
import dev.clawgate.core.inspect.TurnSummary;
import dev.clawgate.core.inspect.TurnTrace;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.StoreException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The {@code turns} table (SPEC OP-8): one row per turn, its phases one compact JSON array. */
final class TurnRows {

    private static final String SUMMARY = "id, inbox_id, channel, account, chat_type, reply_target, thread_id, sender,"
            + " started_at, duration_us, outcome, preview";
    private static final String INSERT = "INSERT INTO turns (inbox_id, channel, account, chat_type, reply_target,"
            + " thread_id, sender, session, started_at, duration_us, outcome, preview, phases, prompt)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id";

    private TurnRows() {}

    static long insert(Tx tx, TurnTrace trace, String phases) throws SQLException {
        TurnSummary t = trace.summary();
        SessionKey key = SessionRows.normalise(t.session());
        Object[] head = Params.of(new Object[] {t.inboxId()}, SessionRows.keyParams(key));
        Object[] params = Params.of(
                head,
                key.display(),
                t.startedAt().toEpochMilli(),
                t.duration().toNanos() / 1000,
                t.outcome(),
                t.preview(),
                phases,
                trace.prompt());
        return tx.first(INSERT, rs -> rs.getLong(1), params).orElseThrow();
    }

    static List<TurnSummary> list(Tx tx, String session, long since, int limit) throws SQLException {
        String order = " ORDER BY started_at DESC, id DESC LIMIT ?";
        if (session == null) {
            return tx.list(
                    "SELECT " + SUMMARY + " FROM turns WHERE started_at >= ?" + order, TurnRows::summary, since, limit);
        }
        return tx.list(
                "SELECT " + SUMMARY + " FROM turns WHERE session = ? AND started_at >= ?" + order,
                TurnRows::summary,
                session,
                since,
                limit);
    }

    static Optional<TurnTrace> find(Tx tx, long id) throws SQLException {
        return tx.first(
                "SELECT " + SUMMARY + ", phases, prompt FROM turns WHERE id = ?",
                rs -> {
                    TurnSummary summary = summary(rs);
                    try {
                        return new TurnTrace(summary, PhaseJson.read(rs.getString(13)), rs.getString(14));
                    } catch (IllegalArgumentException e) {
                        throw new StoreException("the phases of turn " + id + " are not readable", e);
                    }
                },
                id);
    }

    static List<TurnSummary> byInbox(Tx tx, long inboxId) throws SQLException {
        return tx.list("SELECT " + SUMMARY + " FROM turns WHERE inbox_id = ? ORDER BY id", TurnRows::summary, inboxId);
    }

    static int prune(Tx tx, long before) throws SQLException {
        return tx.update("DELETE FROM turns WHERE started_at < ?", before);
    }

    private static TurnSummary summary(ResultSet rs) throws SQLException {
        return new TurnSummary(
                rs.getLong(1),
                rs.getLong(2),
                SessionRows.key(rs, 3),
                Instant.ofEpochMilli(rs.getLong(9)),
                Duration.ofNanos(rs.getLong(10) * 1000),
                rs.getString(11),
                rs.getString(12));
    }
}
