package dev.clawgate.bench.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Why a message got no reply, read from the stopped gateway's own store (read-only): whether its
 * update reached the inbox, the inbox state, and its reply's outbox state and detail (SPEC
 * OUT-7: a send cut without an answer is {@code unknown_after_send} and not resent).
 */
final class GatewayAudit {
    private GatewayAudit() {}

    /** One line per message number, at most {@code limit}; empty when the store is not there (the echo bot). */
    static List<String> explain(Path dataDir, List<Long> numbers, int limit) {
        Path db = dataDir.resolve("clawgate.db");
        List<String> lines = new ArrayList<>();
        if (numbers.isEmpty() || !Files.exists(db)) return lines;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db.toAbsolutePath() + "?mode=ro");
             PreparedStatement q = c.prepareStatement("SELECT i.id, i.state, i.detail, o.state, o.detail FROM inbox i"
                     + " LEFT JOIN outbox o ON o.turn_id = i.id WHERE i.payload LIKE ? ORDER BY i.id")) {
            for (Long n : numbers.subList(0, Math.min(limit, numbers.size()))) {
                q.setString(1, "%\"#" + n + " from %");
                try (ResultSet rs = q.executeQuery()) {
                    if (!rs.next()) {
                        lines.add("#" + n + ": not in the gateway's inbox (the update never reached it)");
                        continue;
                    }
                    lines.add("#%d: inbox %d %s%s, reply %s%s".formatted(n, rs.getLong(1), rs.getString(2),
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
