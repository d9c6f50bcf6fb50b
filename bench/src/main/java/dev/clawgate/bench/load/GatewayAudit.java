package dev.clawgate.bench.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a message got no reply, read from the stopped gateway's own store (read-only): whether its update reached the
 * inbox, the inbox state, and its reply's outbox state and detail (SPEC OUT-7: a send cut without an answer is
 * {@code unknown_after_send} and not resent).
 */
final class GatewayAudit {
    // the tag at the start of the message text, as it stands in the inbox payload's JSON
    private static final Pattern TAG = Pattern.compile("\"#(\\d+) from ");

    private GatewayAudit() {}

    /**
     * What the store holds for one message: its inbox record, its reply's outbox state (null when the turn wrote none),
     * and how many inbox records carry its tag (more than one: recorded twice).
     */
    record Entry(long inboxId, String inboxState, String outboxState, String outboxDetail, int inboxRecords) {
        String describe() {
            return "inbox %d %s, reply %s%s%s"
                    .formatted(
                            inboxId,
                            inboxState,
                            outboxState == null ? "none in the outbox" : outboxState,
                            outboxDetail == null ? "" : " (" + outboxDetail + ")",
                            inboxRecords > 1 ? ", recorded " + inboxRecords + " times" : "");
        }
    }

    /**
     * Every tagged message in the store, by its number, read-only; the gateway may be running (SQLite's WAL lets a
     * reader in beside the writer). Empty when there is no store (the echo bot).
     */
    static Map<Long, Entry> entries(Path dataDir) throws SQLException {
        Path db = dataDir.resolve("clawgate.db");
        Map<Long, Entry> byNumber = new HashMap<>();
        if (!Files.exists(db)) return byNumber;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db.toAbsolutePath() + "?mode=ro");
                PreparedStatement q =
                        c.prepareStatement("SELECT i.id, i.state, i.payload, o.state, o.detail FROM inbox i"
                                + " LEFT JOIN outbox o ON o.turn_id = i.id AND o.kind = 'final' AND o.send_key = '' "
                                + "ORDER BY i.id");
                ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
                Matcher m = TAG.matcher(rs.getString(3));
                if (!m.find()) continue;
                long n = Long.parseLong(m.group(1));
                Entry earlier = byNumber.get(n);
                Entry e = new Entry(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getString(4),
                        rs.getString(5),
                        earlier == null ? 1 : earlier.inboxRecords() + 1);
                // the first record is the one that counts; a second one is only counted
                byNumber.put(
                        n,
                        earlier == null
                                ? e
                                : new Entry(
                                        earlier.inboxId(),
                                        earlier.inboxState(),
                                        earlier.outboxState(),
                                        earlier.outboxDetail(),
                                        e.inboxRecords()));
            }
        }
        return byNumber;
    }

    /** One line per message number, at most {@code limit}; empty when the store is not there (the echo bot). */
    static List<String> explain(Path dataDir, List<Long> numbers, int limit) {
        Path db = dataDir.resolve("clawgate.db");
        List<String> lines = new ArrayList<>();
        if (numbers.isEmpty() || !Files.exists(db)) return lines;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db.toAbsolutePath() + "?mode=ro");
                PreparedStatement q =
                        c.prepareStatement("SELECT i.id, i.state, i.detail, o.state, o.detail FROM inbox i"
                                + " LEFT JOIN outbox o ON o.turn_id = i.id WHERE i.payload LIKE ? ORDER BY i.id")) {
            for (Long n : numbers.subList(0, Math.min(limit, numbers.size()))) {
                q.setString(1, "%\"#" + n + " from %");
                try (ResultSet rs = q.executeQuery()) {
                    if (!rs.next()) {
                        lines.add("#" + n + ": not in the gateway's inbox (the update never reached it)");
                        continue;
                    }
                    lines.add("#%d: inbox %d %s%s, reply %s%s"
                            .formatted(
                                    n,
                                    rs.getLong(1),
                                    rs.getString(2),
                                    rs.getString(3) == null ? "" : " (" + rs.getString(3) + ")",
                                    rs.getString(4) == null ? "none in the outbox" : rs.getString(4),
                                    rs.getString(5) == null ? "" : " (" + rs.getString(5) + ")"));
                }
            }
        } catch (SQLException e) {
            lines.add("(the gateway's store could not be read: " + e.getMessage() + ")");
        }
        return lines;
    }
}
