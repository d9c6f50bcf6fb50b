package dev.clawgate.store.internal;

import dev.clawgate.core.store.Pairing;
import dev.clawgate.core.store.Pairing.Status;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@code pairings} and {@code paired_senders} tables (SPEC IN-5). A pending row whose {@code expires_at} has passed
 * reads as expired; "unexpired" means {@code now < expires_at}.
 */
final class PairingRows {

    private static final String COLUMNS = "code, channel, account, sender, status, created_at, expires_at";
    private static final String PENDING = "status = 'pending' AND expires_at > ?";

    private PairingRows() {}

    static Optional<Pairing> pending(Tx tx, String channel, String account, String sender, long now)
            throws SQLException {
        return tx.first(
                "SELECT " + COLUMNS + " FROM pairings WHERE channel = ? AND account = ? AND sender = ? AND " + PENDING,
                rs -> pairing(rs, now),
                channel,
                account,
                sender,
                now);
    }

    /** The new pending row, the sender's existing pending row, or empty when {@code code} is taken. */
    static Optional<Pairing> create(
            Tx tx, String channel, String account, String sender, String code, long now, long expiresAt)
            throws SQLException {
        // frees the one-pending-per-sender slot held by a code that ran out
        tx.update(
                "UPDATE pairings SET status = 'expired' WHERE channel = ? AND account = ? AND sender = ?"
                        + " AND status = 'pending' AND expires_at <= ?",
                channel,
                account,
                sender,
                now);
        Optional<Pairing> existing = pending(tx, channel, account, sender, now);
        if (existing.isPresent()) {
            return existing;
        }
        Optional<Pairing> created = tx.first(
                "INSERT INTO pairings (" + COLUMNS + ") VALUES (?, ?, ?, ?, 'pending', ?, ?)"
                        + " ON CONFLICT DO NOTHING RETURNING " + COLUMNS,
                rs -> pairing(rs, now),
                code,
                channel,
                account,
                sender,
                now,
                expiresAt);
        // nothing inserted: either another writer gave this sender a code first, or the code is taken
        return created.isPresent() ? created : pending(tx, channel, account, sender, now);
    }

    static int pendingCount(Tx tx, String channel, String account, long now) throws SQLException {
        return tx.first(
                        "SELECT COUNT(*) FROM pairings WHERE channel = ? AND account = ? AND " + PENDING,
                        rs -> rs.getInt(1),
                        channel,
                        account,
                        now)
                .orElse(0);
    }

    static List<Pairing> list(Tx tx, boolean all, long now) throws SQLException {
        String order = " ORDER BY created_at, code";
        if (all) {
            return tx.list("SELECT " + COLUMNS + " FROM pairings" + order, rs -> pairing(rs, now));
        }
        return tx.list("SELECT " + COLUMNS + " FROM pairings WHERE " + PENDING + order, rs -> pairing(rs, now), now);
    }

    /** Moves a pending, unexpired code to {@code outcome}; an approval also records the sender as paired. */
    static Optional<Pairing> decide(Tx tx, String code, Status outcome, long now) throws SQLException {
        Optional<Pairing> decided = tx.first(
                "UPDATE pairings SET status = ?, decided_at = ? WHERE code = ? AND " + PENDING + " RETURNING "
                        + COLUMNS,
                rs -> pairing(rs, now),
                outcome.wireName(),
                now,
                code,
                now);
        if (decided.isPresent() && outcome == Status.APPROVED) {
            Pairing p = decided.get();
            tx.update(
                    "INSERT INTO paired_senders (channel, account, sender, code, approved_at) VALUES (?, ?, ?, ?, ?)"
                            + " ON CONFLICT (channel, account, sender) DO UPDATE SET code = excluded.code,"
                            + " approved_at = excluded.approved_at",
                    p.channel(),
                    p.account(),
                    p.sender(),
                    p.code(),
                    now);
        }
        return decided;
    }

    static boolean isPaired(Tx tx, String channel, String account, String sender) throws SQLException {
        return tx.first(
                        "SELECT 1 FROM paired_senders WHERE channel = ? AND account = ? AND sender = ?",
                        rs -> rs.getInt(1),
                        channel,
                        account,
                        sender)
                .isPresent();
    }

    private static Pairing pairing(ResultSet rs, long now) throws SQLException {
        Instant expiresAt = Instant.ofEpochMilli(rs.getLong(7));
        Status stored = Status.fromWire(rs.getString(5));
        return new Pairing(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                Pairing.statusAt(stored, expiresAt, Instant.ofEpochMilli(now)),
                Instant.ofEpochMilli(rs.getLong(6)),
                expiresAt);
    }
}
