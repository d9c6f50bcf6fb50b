package dev.clawgate.store.internal;

import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.ReceiptCodec;
import dev.clawgate.core.render.ReplyToMode;
import dev.clawgate.core.store.OutboundDraft;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.core.store.OutboxUpdate;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The {@code outbox} table: the write-ahead delivery intents (SPEC OUT-5, OUT-7, OUT-12). */
final class OutboxRows {

    private static final String COLUMNS = "id, turn_id, kind, send_key, channel, account, reply_target, thread_id,"
            + " in_reply_to_message_id, text, state, attempts, created_at, updated_at, receipts, next_attempt_at, "
            + "detail, reply_to, payload";

    // ON CONFLICT DO NOTHING: a second writer of the same turn's reply (another node) adds nothing
    private static final String INSERT =
            "INSERT INTO outbox (turn_id, kind, send_key, channel, account, reply_target, thread_id,"
                    + " in_reply_to_message_id, text, state, attempts, created_at, updated_at, next_attempt_at, "
                    + "reply_to, payload)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)"
                    + " ON CONFLICT (turn_id, kind, send_key) DO NOTHING";

    private OutboxRows() {}

    /** Writes the turn's entry of the draft's kind unless it has one; returns the turn's entry either way. */
    static OutboxEntry insert(Tx tx, long turnId, OutboundDraft d, long now) throws SQLException {
        tx.update(
                INSERT,
                turnId,
                kindName(d.kind()),
                d.sendKey(),
                d.channel(),
                d.account(),
                d.replyTarget(),
                d.threadId(),
                d.inReplyToMessageId(),
                d.text(),
                OutboxState.PENDING.wireName(),
                now,
                now,
                now,
                d.replyTo().wireName(),
                d.payload());
        return tx.first(
                        "SELECT " + COLUMNS + " FROM outbox WHERE turn_id = ? AND kind = ? AND send_key = ?",
                        OutboxRows::entry,
                        turnId,
                        kindName(d.kind()),
                        d.sendKey())
                .orElseThrow();
    }

    static Optional<OutboxEntry> ofTurn(Tx tx, long turnId, OutboundMessage.Kind kind) throws SQLException {
        return tx.first(
                "SELECT " + COLUMNS + " FROM outbox WHERE turn_id = ? AND kind = ? AND send_key = ''",
                OutboxRows::entry,
                turnId,
                kindName(kind));
    }

    /** What {@code claimed_by} says once the claimer was declared dead mid-send. */
    static final String FENCED = "fenced:";

    /**
     * PENDING → SENDING; true only for the caller whose update changed the row. {@code node} is recorded as the claimer
     * ('' outside cluster mode). On PostgreSQL the row is taken {@code FOR UPDATE SKIP LOCKED}, so a node never waits
     * on another's claim of it, and a node the cluster declared dead claims nothing (SPEC OP-2, OUT-7: fencing).
     */
    static boolean claim(Tx tx, Dialect dialect, long id, long now, String node) throws SQLException {
        int changed = dialect == Dialect.POSTGRESQL
                ? tx.update(
                        "UPDATE outbox SET state = ?, updated_at = ?, claimed_by = ? WHERE id = (SELECT id FROM outbox"
                                + " WHERE id = ? AND state = ? FOR UPDATE SKIP LOCKED) AND (? = '' OR EXISTS (SELECT 1"
                                + " FROM cluster_nodes WHERE node_id = ? AND state = 'alive'))",
                        OutboxState.SENDING.wireName(),
                        now,
                        node,
                        id,
                        OutboxState.PENDING.wireName(),
                        node,
                        node)
                : tx.update(
                        "UPDATE outbox SET state = ?, updated_at = ?, claimed_by = ? WHERE id = ? AND state = ?",
                        OutboxState.SENDING.wireName(),
                        now,
                        node,
                        id,
                        OutboxState.PENDING.wireName());
        if (changed == 0) requireExists(tx, id);
        return changed == 1;
    }

    /**
     * Writes {@code u}; receipts also go to the turn's assistant message in the transcript (SPEC OUT-8), found through
     * transcript_inbox_id (V010): without it the lookup scanned all history ever kept.
     */
    static void update(Tx tx, long id, OutboxUpdate u, long now, String node) throws SQLException {
        String receipts = u.receipts().isEmpty() ? null : ReceiptCodec.toJson(u.receipts());
        String receiptId = u.receipts().isEmpty() ? null : u.receipts().get(0).primaryId();
        long next = u.nextAttemptAt() == null ? now : u.nextAttemptAt().toEpochMilli();
        int changed = tx.update(
                "UPDATE outbox SET state = ?, receipts = ?, receipt_id = ?, detail = ?, attempts = ?, next_attempt_at "
                        + "= ?,"
                        + " updated_at = ? WHERE id = ? AND COALESCE(claimed_by, '') <> ?",
                u.state().wireName(),
                receipts,
                receiptId,
                u.detail(),
                u.attempts(),
                next,
                now,
                id,
                FENCED + node);
        if (changed == 0) {
            requireExists(tx, id);
            // SPEC OP-2: this node was declared dead while it sent; its late outcome is refused, the entry stays as the
            // cluster left it (unknown_after_send)
            throw new FencedException("outbox entry " + id + " was taken from this node; its update is refused");
        }
        if (receipts != null) {
            tx.update(
                    "UPDATE transcript SET receipt = ? WHERE role = 'assistant' AND inbox_id = (SELECT turn_id FROM "
                            + "outbox WHERE id = ?)",
                    receipts,
                    id);
        }
    }

    static Optional<OutboxEntry> byId(Tx tx, long id) throws SQLException {
        return tx.first("SELECT " + COLUMNS + " FROM outbox WHERE id = ?", OutboxRows::entry, id);
    }

    static List<OutboxEntry> due(Tx tx, long now, int limit) throws SQLException {
        return tx.list(
                "SELECT " + COLUMNS + " FROM outbox WHERE state = ? AND next_attempt_at <= ? ORDER BY id LIMIT ?",
                OutboxRows::entry,
                OutboxState.PENDING.wireName(),
                now,
                limit);
    }

    static List<MessageReceipt> replyReceipts(Tx tx, long turnId) throws SQLException {
        return tx.first(
                        "SELECT receipt FROM transcript WHERE role = 'assistant' AND inbox_id = ?",
                        rs -> rs.getString(1),
                        turnId)
                .map(ReceiptCodec::fromJson)
                .orElse(List.of());
    }

    static List<OutboxEntry> byState(Tx tx, List<OutboxState> states) throws SQLException {
        if (states.isEmpty()) return List.of();
        String marks = String.join(", ", Collections.nCopies(states.size(), "?"));
        Object[] params = states.stream().map(OutboxState::wireName).toArray();
        return tx.list(
                "SELECT " + COLUMNS + " FROM outbox WHERE state IN (" + marks + ") ORDER BY id",
                OutboxRows::entry,
                params);
    }

    static Map<OutboxState, Long> counts(Tx tx) throws SQLException {
        Map<OutboxState, Long> counts = new EnumMap<>(OutboxState.class);
        for (OutboxState state : OutboxState.values()) {
            counts.put(state, 0L);
        }
        for (Map.Entry<OutboxState, Long> row : tx.list(
                "SELECT state, COUNT(*) FROM outbox GROUP BY state",
                rs -> Map.entry(OutboxState.fromWire(rs.getString(1)), rs.getLong(2)))) {
            counts.put(row.getKey(), row.getValue());
        }
        return counts;
    }

    private static void requireExists(Tx tx, long id) throws SQLException {
        if (tx.first("SELECT id FROM outbox WHERE id = ?", rs -> rs.getLong(1), id)
                .isEmpty()) {
            throw new IllegalArgumentException("there is no outbox entry " + id);
        }
    }

    private static String kindName(OutboundMessage.Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    private static OutboxEntry entry(ResultSet rs) throws SQLException {
        OutboundDraft draft = new OutboundDraft(
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8),
                rs.getString(9),
                rs.getString(10),
                OutboundMessage.Kind.valueOf(rs.getString(3).toUpperCase(Locale.ROOT)),
                rs.getString(4),
                ReplyToMode.parse(rs.getString(18)),
                rs.getString(19));
        return new OutboxEntry(
                rs.getLong(1),
                rs.getLong(2),
                draft,
                OutboxState.fromWire(rs.getString(11)),
                rs.getInt(12),
                Instant.ofEpochMilli(rs.getLong(13)),
                Instant.ofEpochMilli(rs.getLong(14)),
                ReceiptCodec.fromJson(rs.getString(15)),
                Instant.ofEpochMilli(rs.getLong(16)),
                rs.getString(17));
    }
}
