package dev.clawgate.store.internal;

import dev.clawgate.core.store.InboxBook;
import dev.clawgate.core.store.UnreadableInbound;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/** The {@code unreadable_inbound} table (SPEC IN-4, CH-0): poison messages, kept bounded. */
final class UnreadableRows {
    private static final String COLUMNS = "id, channel, account, platform_ref, reason, raw, raw_length, recorded_at";

    private UnreadableRows() {}

    /**
     * Inserts {@code u} unless its platform ref is already there; keeps the newest {@link InboxBook#UNREADABLE_KEPT}.
     */
    static boolean insert(Tx tx, UnreadableInbound u, long now) throws SQLException {
        int added = tx.update(
                "INSERT INTO unreadable_inbound (channel, account, platform_ref, reason, raw, raw_length,"
                        + " recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                storable(u.channel()),
                storable(u.account()),
                storable(u.platformRef()),
                storable(u.reason()),
                storable(u.raw()),
                u.rawLength(),
                now);
        if (added > 0) {
            tx.update(
                    "DELETE FROM unreadable_inbound WHERE id <= (SELECT id FROM unreadable_inbound ORDER BY id DESC"
                            + " LIMIT 1 OFFSET ?)",
                    InboxBook.UNREADABLE_KEPT);
        }
        return added > 0;
    }

    static List<UnreadableInbound> newest(Tx tx, int limit) throws SQLException {
        return tx.list(
                "SELECT " + COLUMNS + " FROM unreadable_inbound ORDER BY id DESC LIMIT ?", UnreadableRows::row, limit);
    }

    /** PostgreSQL text cannot hold NUL, and a poison payload may: it is kept as U+FFFD. */
    private static String storable(String s) {
        return s.indexOf('\0') < 0 ? s : s.replace('\0', '\uFFFD');
    }

    private static UnreadableInbound row(ResultSet rs) throws SQLException {
        return new UnreadableInbound(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getInt(7),
                Instant.ofEpochMilli(rs.getLong(8)));
    }
}
