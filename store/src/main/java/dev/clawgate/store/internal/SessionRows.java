package dev.clawgate.store.internal;

import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.SessionSummary;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@code sessions} and {@code session_settings} tables. A session key is stored as its columns (SPEC HI-1), with ''
 * for an absent thread id or sender; reading maps '' back to null, so an empty thread id or sender means the same as
 * none.
 */
final class SessionRows {

    /** The six key columns of {@code sessions} under alias {@code s}, in {@link #keyParams} order. */
    static final String KEY_MATCH = "s.channel = ? AND s.account = ? AND s.chat_type = ? AND s.reply_target = ?"
            + " AND s.thread_id = ? AND s.sender = ?";

    /** The key columns under alias {@code s}, in the order {@link #key(ResultSet, int)} reads them. */
    static final String KEY_COLUMNS = "s.channel, s.account, s.chat_type, s.reply_target, s.thread_id, s.sender";

    private static final String INSERT = "INSERT INTO sessions"
            + " (channel, account, chat_type, reply_target, thread_id, sender, created_at, last_activity)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (channel, account, chat_type, reply_target, thread_id, sender)";
    private static final String TOUCH = INSERT + " DO UPDATE SET last_activity = excluded.last_activity RETURNING id";
    private static final String CREATE = INSERT + " DO NOTHING RETURNING id";
    private static final String FIND = "SELECT s.id FROM sessions s WHERE " + KEY_MATCH;

    private SessionRows() {}

    /** The key as the store keeps it: an empty thread id or sender is no thread or sender. */
    static SessionKey normalise(SessionKey key) {
        if (!"".equals(key.threadId()) && !"".equals(key.sender())) {
            return key;
        }
        return new SessionKey(
                key.channel(),
                key.account(),
                key.chatType(),
                key.replyTarget(),
                emptyToNull(key.threadId()),
                emptyToNull(key.sender()));
    }

    static Object[] keyParams(SessionKey key) {
        return new Object[] {
            key.channel(),
            key.account(),
            key.chatType().wireName(),
            key.replyTarget(),
            nullToEmpty(key.threadId()),
            nullToEmpty(key.sender())
        };
    }

    /** Reads the six key columns starting at {@code first}. */
    static SessionKey key(ResultSet rs, int first) throws SQLException {
        return new SessionKey(
                rs.getString(first),
                rs.getString(first + 1),
                ChatType.fromWire(rs.getString(first + 2)),
                rs.getString(first + 3),
                emptyToNull(rs.getString(first + 4)),
                emptyToNull(rs.getString(first + 5)));
    }

    /** The session's id, creating the session if needed, and marks it active at {@code now}. */
    static long touch(Tx tx, SessionKey key, long now) throws SQLException {
        return tx.first(TOUCH, rs -> rs.getLong(1), Params.of(keyParams(key), now, now))
                .orElseThrow();
    }

    /** The session's id, creating the session if needed, without counting it as activity. */
    static long ensure(Tx tx, SessionKey key, long now) throws SQLException {
        Optional<Long> found = find(tx, key);
        if (found.isPresent()) {
            return found.get();
        }
        Optional<Long> created = tx.first(CREATE, rs -> rs.getLong(1), Params.of(keyParams(key), now, now));
        // empty only when another node created it between our two statements
        return created.isPresent() ? created.get() : find(tx, key).orElseThrow();
    }

    static Optional<Long> find(Tx tx, SessionKey key) throws SQLException {
        return tx.first(FIND, rs -> rs.getLong(1), keyParams(key));
    }

    static Optional<String> setting(Tx tx, SessionKey key, String name) throws SQLException {
        return tx.first(
                "SELECT ss.value FROM session_settings ss JOIN sessions s ON s.id = ss.session_id" + " WHERE "
                        + KEY_MATCH + " AND ss.name = ?",
                rs -> rs.getString(1),
                Params.of(keyParams(key), name));
    }

    static void putSetting(Tx tx, SessionKey key, String name, String value, long now) throws SQLException {
        if (value == null) {
            tx.update(
                    "DELETE FROM session_settings WHERE name = ? AND session_id IN (SELECT s.id FROM sessions s WHERE "
                            + KEY_MATCH + ")",
                    Params.of(new Object[] {name}, keyParams(key)));
            return;
        }
        long sessionId = ensure(tx, key, now);
        tx.update(
                "INSERT INTO session_settings (session_id, name, value) VALUES (?, ?, ?)"
                        + " ON CONFLICT (session_id, name) DO UPDATE SET value = excluded.value",
                sessionId,
                name,
                value);
    }

    static List<SessionSummary> summaries(Tx tx) throws SQLException {
        return tx.list(
                "SELECT " + KEY_COLUMNS + ", s.last_activity,"
                        + " (SELECT COUNT(*) FROM transcript t WHERE t.session_id = s.id)"
                        + " FROM sessions s ORDER BY s.last_activity DESC, s.id DESC",
                rs -> new SessionSummary(
                        key(rs, 1), Math.toIntExact(rs.getLong(8)), Instant.ofEpochMilli(rs.getLong(7))));
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
