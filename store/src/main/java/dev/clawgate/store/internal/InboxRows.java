package dev.clawgate.store.internal;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The {@code inbox} and {@code dedupe} tables (SPEC IN-1, IN-4). */
final class InboxRows {

    /** At most this many expired dedupe keys are deleted per recorded message: bounded work. */
    static final int PRUNE_BATCH = 100;

    /** Final states as SQL literals: constants from the enum, never user input. */
    static final String FINAL_STATES = finalLiterals();

    static final String OPEN_STATES =
            "'" + InboxState.RECEIVED.wireName() + "', '" + InboxState.DISPATCHED.wireName() + "'";

    // the WHERE turns a fresh duplicate into "no row returned"; a stale key is refreshed and returned
    private static final String CLAIM_KEY = "INSERT INTO dedupe (key, seen_at) VALUES (?, ?)"
            + " ON CONFLICT (key) DO UPDATE SET seen_at = excluded.seen_at WHERE dedupe.seen_at <= ? RETURNING key";

    private static final String INSERT = "INSERT INTO inbox (dedupe_key, channel, account, message_id, sender,"
            + " reply_target, thread_id, scope_id, chat_type, session_id, state, attempts, platform_ts, recorded_at,"
            + " updated_at, payload, node_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?) RETURNING id";

    private static final String SELECT = "SELECT i.id, i.state, i.attempts, i.recorded_at, i.payload, "
            + SessionRows.KEY_COLUMNS + " FROM inbox i JOIN sessions s ON s.id = i.session_id";

    /** One session's buffered records, newest first; served by {@code inbox_session_state_id} (V003). */
    static final String BUFFERED =
            SELECT + " WHERE " + SessionRows.KEY_MATCH + " AND i.state = ? ORDER BY i.id DESC LIMIT ?";

    private InboxRows() {}

    /**
     * Claims {@code key} at {@code now}: true when it was never seen or was last seen at or before {@code cutoff};
     * false for a duplicate. Also prunes a bounded batch of expired keys.
     */
    static boolean claimKey(Tx tx, Dialect dialect, String key, long now, long cutoff) throws SQLException {
        boolean claimed =
                tx.first(CLAIM_KEY, rs -> rs.getString(1), key, now, cutoff).isPresent();
        tx.update(dialect.pruneDedupeSql(), cutoff, PRUNE_BATCH);
        return claimed;
    }

    /** @param node the cluster node that took the record and hands it on or runs it ('' outside cluster mode) */
    static long insert(Tx tx, InboundMessage m, long sessionId, String dedupeKey, String payload, long now, String node)
            throws SQLException {
        return tx.first(
                        INSERT,
                        rs -> rs.getLong(1),
                        dedupeKey,
                        m.channel(),
                        m.account(),
                        m.id(),
                        m.sender(),
                        m.replyTarget(),
                        m.threadId(),
                        m.scopeId(),
                        m.chatType().wireName(),
                        sessionId,
                        InboxState.RECEIVED.wireName(),
                        m.timestamp().toEpochMilli(),
                        now,
                        now,
                        payload,
                        node)
                .orElseThrow();
    }

    /**
     * Moves a record that is not final yet to {@code state}; {@code DISPATCHED} counts an attempt. Returns false,
     * changing nothing, when the record already has a final state.
     *
     * @throws IllegalArgumentException when there is no such record
     */
    static boolean move(Tx tx, long id, InboxState state, String detail, long now) throws SQLException {
        int attempt = state == InboxState.DISPATCHED ? 1 : 0;
        int changed = tx.update(
                "UPDATE inbox SET state = ?, detail = ?, attempts = attempts + ?, updated_at = ?"
                        + " WHERE id = ? AND state NOT IN (" + FINAL_STATES + ")",
                state.wireName(),
                detail,
                attempt,
                now,
                id);
        if (changed == 0) {
            requireExists(tx, id);
            return false;
        }
        return true;
    }

    /** Like {@link #move} but leaves {@code detail} as it was. */
    static boolean finish(Tx tx, long id, InboxState state, long now) throws SQLException {
        int changed = tx.update(
                "UPDATE inbox SET state = ?, updated_at = ? WHERE id = ? AND state NOT IN (" + FINAL_STATES + ")",
                state.wireName(),
                now,
                id);
        if (changed == 0) {
            requireExists(tx, id);
            return false;
        }
        return true;
    }

    static Optional<InboxState> state(Tx tx, long id) throws SQLException {
        return tx.first("SELECT state FROM inbox WHERE id = ?", rs -> InboxState.fromWire(rs.getString(1)), id);
    }

    static Optional<InboxRecord> find(Tx tx, long id) throws SQLException {
        return tx.first(SELECT + " WHERE i.id = ?", InboxRows::record, id);
    }

    /** One session's records in RECEIVED or DISPATCHED, oldest first (cluster takeover, SPEC IN-4, OP-2). */
    static List<InboxRecord> unfinishedOfSession(Tx tx, long sessionId) throws SQLException {
        return tx.list(
                SELECT + " WHERE i.session_id = ? AND i.state IN (" + OPEN_STATES + ") ORDER BY i.id",
                InboxRows::record,
                sessionId);
    }

    static List<InboxRecord> unfinished(Tx tx) throws SQLException {
        return tx.list(SELECT + " WHERE i.state IN (" + OPEN_STATES + ") ORDER BY i.id", InboxRows::record);
    }

    /** The newest {@code limit} buffered records of the session, oldest first (SPEC IN-6). */
    static List<InboxRecord> buffered(Tx tx, SessionKey key, int limit) throws SQLException {
        List<InboxRecord> newestFirst = tx.list(
                BUFFERED,
                InboxRows::record,
                Params.of(SessionRows.keyParams(key), InboxState.BUFFERED.wireName(), limit));
        return List.copyOf(newestFirst.reversed());
    }

    static Map<InboxState, Long> counts(Tx tx) throws SQLException {
        Map<InboxState, Long> counts = new EnumMap<>(InboxState.class);
        for (InboxState state : InboxState.values()) {
            counts.put(state, 0L);
        }
        for (Map.Entry<InboxState, Long> row : tx.list(
                "SELECT state, COUNT(*) FROM inbox GROUP BY state",
                rs -> Map.entry(InboxState.fromWire(rs.getString(1)), rs.getLong(2)))) {
            counts.put(row.getKey(), row.getValue());
        }
        return counts;
    }

    private static void requireExists(Tx tx, long id) throws SQLException {
        if (tx.first("SELECT id FROM inbox WHERE id = ?", rs -> rs.getLong(1), id)
                .isEmpty()) {
            throw new IllegalArgumentException("there is no inbox record " + id);
        }
    }

    private static InboxRecord record(ResultSet rs) throws SQLException {
        long id = rs.getLong(1);
        SessionKey session = SessionRows.key(rs, 6);
        return new InboxRecord(
                id,
                InboundJson.read(id, rs.getString(5)),
                session,
                InboxState.fromWire(rs.getString(2)),
                rs.getInt(3),
                Instant.ofEpochMilli(rs.getLong(4)));
    }

    private static String finalLiterals() {
        return Arrays.stream(InboxState.values())
                .filter(InboxState::isFinal)
                .map(s -> "'" + s.wireName() + "'")
                .collect(Collectors.joining(", "));
    }
}
