package dev.clawgate.store.internal;

import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.TranscriptEntry;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collections;
import java.util.List;

/** The {@code transcript} table: a session's user and final assistant messages (SPEC HI-2). */
final class TranscriptRows {

    private static final String IN_SESSION =
            "session_id IN (SELECT s.id FROM sessions s WHERE " + SessionRows.KEY_MATCH + ")";

    // ON CONFLICT: one message per (session, inbox record, role) makes re-runs append nothing twice
    private static final String APPEND = "INSERT INTO transcript (session_id, role, content, inbox_id, created_at)"
            + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, inbox_id, role) DO NOTHING";

    private TranscriptRows() {}

    /** The newest {@code max} entries, oldest first. */
    static List<TranscriptEntry> newest(Tx tx, SessionKey key, int max) throws SQLException {
        List<TranscriptEntry> entries = tx.list(
                "SELECT t.id, t.role, t.content, t.inbox_id, t.created_at"
                        + " FROM transcript t JOIN sessions s ON s.id = t.session_id WHERE " + SessionRows.KEY_MATCH
                        + " ORDER BY t.id DESC LIMIT ?",
                rs -> {
                    long inboxId = rs.getLong(4);
                    Long link = rs.wasNull() ? null : inboxId;
                    return new TranscriptEntry(
                            rs.getLong(1),
                            Role.fromWire(rs.getString(2)),
                            rs.getString(3),
                            link,
                            Instant.ofEpochMilli(rs.getLong(5)));
                },
                Params.of(SessionRows.keyParams(key), max));
        Collections.reverse(entries);
        return entries;
    }

    /** Appends a message; returns false when the session already has one of this role for {@code inboxId}. */
    static boolean append(Tx tx, long sessionId, Role role, String content, Long inboxId, long now)
            throws SQLException {
        return tx.update(APPEND, sessionId, role.wireName(), content, inboxId, now) == 1;
    }

    static int removeUserMessage(Tx tx, SessionKey key, long inboxId) throws SQLException {
        return tx.update(
                "DELETE FROM transcript WHERE inbox_id = ? AND role = ? AND " + IN_SESSION,
                Params.of(new Object[] {inboxId, Role.USER.wireName()}, SessionRows.keyParams(key)));
    }

    static int clear(Tx tx, SessionKey key) throws SQLException {
        return tx.update("DELETE FROM transcript WHERE " + IN_SESSION, SessionRows.keyParams(key));
    }

    static void clear(Tx tx, long sessionId) throws SQLException {
        tx.update("DELETE FROM transcript WHERE session_id = ?", sessionId);
    }
}
