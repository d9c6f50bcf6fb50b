package dev.clawgate.store.internal;

import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.OutboxState;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The {@link ClusterBook} on PostgreSQL (SPEC OP-2). Liveness is the database's clock ({@link #NOW}), so nodes with
 * skewed clocks agree; every takeover is a compare-and-set that grows a fence, so two nodes never both win one.
 */
public final class JdbcCluster implements ClusterBook {

    /** The database's time in epoch milliseconds. */
    static final String NOW = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";

    private static final String ALIVE_HOLDER = "EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.node_id = %s.node_id"
            + " AND n.state = 'alive' AND n.heartbeat_at >= " + NOW + " - ?)";
    private static final String DEAD = "(SELECT node_id FROM cluster_nodes WHERE state = 'dead')";
    /** Dead nodes are forgotten a day after their last heartbeat, once they hold nothing. */
    private static final long FORGET_DEAD_MS = Duration.ofDays(1).toMillis();

    private final Database db;
    private final String node;
    private final long ttlMs;
    private final ClusterWakeUps wakeUps;

    public JdbcCluster(Database db, String node, Duration leaseTtl, ClusterWakeUps wakeUps) {
        if (db.dialect() != Dialect.POSTGRESQL) throw new IllegalArgumentException("cluster mode needs PostgreSQL");
        if (node == null || node.isBlank()) throw new IllegalArgumentException("a node id is needed");
        this.db = db;
        this.node = node;
        this.ttlMs = leaseTtl.toMillis();
        this.wakeUps = wakeUps;
    }

    @Override
    public String nodeId() {
        return node;
    }

    @Override
    public List<InboxRecord> join(String bind) {
        wakeUps.listen();
        return db.write("cluster join", tx -> {
            // a configured node id used again: what its previous process left is this one's to finish
            boolean again = tx.update(
                            "UPDATE cluster_nodes SET state = 'alive', bind = ?, roles = '', started_at = " + NOW
                                    + ", heartbeat_at = " + NOW + " WHERE node_id = ?",
                            bind,
                            node)
                    == 1;
            if (!again) {
                tx.update(
                        "INSERT INTO cluster_nodes (node_id, state, bind, roles, started_at, heartbeat_at) VALUES"
                                + " (?, 'alive', ?, '', " + NOW + ", " + NOW + ")",
                        node,
                        bind);
                return List.<InboxRecord>of();
            }
            unknownAfterSend(tx, "node_id = ?", node);
            tx.update("DELETE FROM listener_leases WHERE node_id = ?", node);
            tx.update("DELETE FROM cluster_handoffs WHERE node_id = ?", node);
            rehome(tx, "i.node_id = ?", node);
            List<Long> sessions =
                    tx.list("SELECT session_id FROM session_leases WHERE node_id = ?", rs -> rs.getLong(1), node);
            return take(tx, sessions);
        });
    }

    @Override
    public boolean heartbeat(String roles) {
        return db.write(
                        "cluster heartbeat",
                        tx -> tx.update(
                                "UPDATE cluster_nodes SET heartbeat_at = " + NOW + ", roles = ? WHERE node_id = ? AND"
                                        + " state = 'alive'",
                                roles,
                                node))
                == 1;
    }

    @Override
    public List<String> sweep() {
        return db.write("cluster sweep", tx -> {
            List<String> died = tx.list(
                    "UPDATE cluster_nodes SET state = 'dead' WHERE state = 'alive' AND heartbeat_at < " + NOW
                            + " - ? RETURNING node_id",
                    rs -> rs.getString(1),
                    ttlMs);
            unknownAfterSend(tx, "node_id IN " + DEAD);
            tx.update("DELETE FROM listener_leases WHERE node_id IN " + DEAD);
            tx.update("DELETE FROM cluster_handoffs WHERE node_id IN " + DEAD);
            tx.update(
                    "DELETE FROM cluster_nodes c WHERE c.state = 'dead' AND c.heartbeat_at < " + NOW + " - ? AND NOT"
                            + " EXISTS (SELECT 1 FROM session_leases l WHERE l.node_id = c.node_id)",
                    FORGET_DEAD_MS);
            rehome(tx, "i.node_id IN " + DEAD);
            return died;
        });
    }

    /** SPEC OUT-7, OUT-12: a send cut by its node's death is reported, not resent; the dead node's late word is not. */
    private static void unknownAfterSend(Tx tx, String nodes, Object... params) throws SQLException {
        Object[] all = new Object[params.length + 2];
        all[0] = OutboxState.UNKNOWN_AFTER_SEND.wireName();
        System.arraycopy(params, 0, all, 1, params.length);
        all[all.length - 1] = OutboxState.SENDING.wireName();
        tx.update(
                "UPDATE outbox SET state = ?, claimed_by = '" + OutboxRows.FENCED + "' || claimed_by, detail = 'its"
                        + " node left the cluster while sending', updated_at = " + NOW
                        + " WHERE claimed_by IN (SELECT node_id FROM cluster_nodes WHERE " + nodes + ") AND state = ?",
                all);
    }

    /**
     * SPEC IN-4, DI-1: the open records {@code holders} names (a dead node's, or this node's previous process's) whose
     * session a live node runs are handed to that node: their node took them and was killed before it handed them on.
     * Records of a session whose lease is a dead node's, or that has none, move with {@link #takeOverSessions}.
     */
    private void rehome(Tx tx, String holders, Object... params) throws SQLException {
        Object[] all = new Object[params.length + 1];
        System.arraycopy(params, 0, all, 0, params.length);
        all[params.length] = ttlMs;
        List<String> woken = tx.list(
                "WITH moved AS (UPDATE inbox i SET node_id = l.node_id FROM session_leases l WHERE l.session_id ="
                        + " i.session_id AND i.state IN (" + InboxRows.OPEN_STATES + ") AND " + holders
                        + " AND l.node_id IS DISTINCT FROM i.node_id AND " + ALIVE_HOLDER.formatted("l")
                        + " RETURNING i.id, l.node_id) INSERT INTO cluster_handoffs (inbox_id, node_id, created_at)"
                        + " SELECT id, node_id, " + NOW + " FROM moved ON CONFLICT (inbox_id) DO UPDATE SET node_id ="
                        + " EXCLUDED.node_id RETURNING node_id",
                rs -> rs.getString(1),
                all);
        for (String to : new java.util.TreeSet<>(woken)) notify(tx, to);
    }

    private static void notify(Tx tx, String to) throws SQLException {
        // delivered at commit, so the woken node finds the row
        tx.list("SELECT pg_notify('" + ClusterWakeUps.CHANNEL + "', ?)", rs -> 0, to);
    }

    @Override
    public List<InboxRecord> takeOverSessions(int limit) {
        return db.write("cluster take over sessions", tx -> {
            List<Long> sessions = tx.list(
                    "UPDATE session_leases SET node_id = ?, fence = fence + 1, taken_at = " + NOW
                            + " WHERE session_id IN (SELECT l.session_id FROM session_leases l JOIN cluster_nodes n"
                            + " ON n.node_id = l.node_id WHERE n.state = 'dead' LIMIT ? FOR UPDATE OF l SKIP LOCKED)"
                            + " RETURNING session_id",
                    rs -> rs.getLong(1),
                    node,
                    limit);
            // records a node committed and died before claiming their session for: no lease names them
            List<Long> orphans = tx.list(
                    "INSERT INTO session_leases (session_id, node_id, fence, taken_at) SELECT DISTINCT i.session_id,"
                            + " ?, 1, " + NOW + " FROM inbox i WHERE i.state IN (" + InboxRows.OPEN_STATES + ") AND"
                            + " i.recorded_at < " + NOW + " - ? AND NOT EXISTS (SELECT 1 FROM session_leases l WHERE"
                            + " l.session_id = i.session_id) LIMIT ? ON CONFLICT DO NOTHING RETURNING session_id",
                    rs -> rs.getLong(1),
                    node,
                    ttlMs,
                    limit);
            List<Long> all = new ArrayList<>(sessions);
            all.addAll(orphans);
            return take(tx, all);
        });
    }

    /**
     * The unfinished records of {@code sessions}, oldest first, now held by this node: a hand-off of them to another
     * node is void, and a later sweep does not hand them on again (each runs here, once).
     */
    private List<InboxRecord> take(Tx tx, List<Long> sessions) throws SQLException {
        List<InboxRecord> out = new ArrayList<>();
        for (long s : sessions) {
            String open = "SELECT id FROM inbox WHERE session_id = ? AND state IN (" + InboxRows.OPEN_STATES + ")";
            tx.update("DELETE FROM cluster_handoffs WHERE inbox_id IN (" + open + ")", s);
            tx.update(
                    "UPDATE inbox SET node_id = ? WHERE session_id = ? AND state IN (" + InboxRows.OPEN_STATES + ")",
                    node,
                    s);
            out.addAll(InboxRows.unfinishedOfSession(tx, s));
        }
        out.sort(Comparator.comparingLong(InboxRecord::id));
        return out;
    }

    @Override
    public SessionClaim claimSession(InboxRecord record) {
        return db.write("cluster claim session", tx -> {
            Optional<Boolean> inserted = tx.first(
                    "INSERT INTO session_leases (session_id, node_id, fence, taken_at) SELECT session_id, ?, 1, " + NOW
                            + " FROM inbox WHERE id = ? ON CONFLICT (session_id) DO UPDATE SET node_id ="
                            + " EXCLUDED.node_id, fence = session_leases.fence + 1, taken_at = EXCLUDED.taken_at"
                            + " WHERE session_leases.node_id <> EXCLUDED.node_id AND NOT "
                            + ALIVE_HOLDER.formatted("session_leases") + " RETURNING (xmax::text = '0')",
                    rs -> rs.getBoolean(1),
                    node,
                    record.id(),
                    ttlMs);
            if (inserted.isPresent()) {
                if (inserted.get()) return new SessionClaim(node, List.of(record));
                // taken from a dead node: what it left unfinished runs first, in order (SPEC IN-4)
                long session = tx.first("SELECT session_id FROM inbox WHERE id = ?", rs -> rs.getLong(1), record.id())
                        .orElseThrow();
                return new SessionClaim(node, take(tx, List.of(session)));
            }
            String owner = tx.first(
                            "SELECT l.node_id FROM session_leases l JOIN inbox i ON i.session_id = l.session_id"
                                    + " WHERE i.id = ?",
                            rs -> rs.getString(1),
                            record.id())
                    .orElseThrow(() -> new IllegalArgumentException("there is no inbox record " + record.id()));
            return new SessionClaim(owner, owner.equals(node) ? List.of(record) : List.of());
        });
    }

    @Override
    public void handOff(long inboxId, String to) {
        db.write("cluster hand off", tx -> {
            // fenced: a node declared dead meanwhile hands nothing on (a sweep handed its records already), and a
            // record already held by the target is not handed twice
            int moved = tx.update(
                    "UPDATE inbox SET node_id = ? WHERE id = ? AND node_id IS DISTINCT FROM ? AND EXISTS (SELECT 1"
                            + " FROM cluster_nodes WHERE node_id = ? AND state = 'alive')",
                    to,
                    inboxId,
                    to,
                    node);
            if (moved == 0) return null;
            tx.update(
                    "INSERT INTO cluster_handoffs (inbox_id, node_id, created_at) VALUES (?, ?, " + NOW
                            + ") ON CONFLICT DO NOTHING",
                    inboxId,
                    to);
            notify(tx, to);
            return null;
        });
    }

    @Override
    public List<InboxRecord> takeHandoffs() {
        return db.write("cluster take hand-offs", tx -> {
            List<Long> ids = tx.list(
                    "DELETE FROM cluster_handoffs WHERE node_id = ? AND EXISTS (SELECT 1 FROM cluster_nodes WHERE"
                            + " node_id = ? AND state = 'alive') RETURNING inbox_id",
                    rs -> rs.getLong(1),
                    node,
                    node);
            List<InboxRecord> out = new ArrayList<>();
            for (long id : ids.stream().sorted().toList()) {
                InboxRows.find(tx, id).filter(r -> !r.state().isFinal()).ifPresent(out::add);
            }
            return out;
        });
    }

    @Override
    public OptionalLong acquireListener(String listener) {
        return db.write("cluster acquire listener", tx -> {
            Optional<Long> won = tx.first(
                    "INSERT INTO listener_leases (listener, node_id, fence, taken_at) SELECT ?, ?, 1, " + NOW
                            + " WHERE EXISTS (SELECT 1 FROM cluster_nodes WHERE node_id = ? AND state = 'alive')"
                            + " ON CONFLICT (listener) DO UPDATE SET node_id = EXCLUDED.node_id, fence ="
                            + " listener_leases.fence + 1, taken_at = EXCLUDED.taken_at WHERE listener_leases.node_id"
                            + " <> EXCLUDED.node_id AND NOT " + ALIVE_HOLDER.formatted("listener_leases")
                            + " RETURNING fence",
                    rs -> rs.getLong(1),
                    listener,
                    node,
                    node,
                    ttlMs);
            if (won.isPresent()) return OptionalLong.of(won.get());
            Optional<Long> mine = tx.first(
                    "SELECT fence FROM listener_leases WHERE listener = ? AND node_id = ?",
                    rs -> rs.getLong(1),
                    listener,
                    node);
            return mine.map(OptionalLong::of).orElse(OptionalLong.empty());
        });
    }

    @Override
    public boolean holdsListener(String listener, long fence) {
        return db.read(
                        "cluster check listener",
                        tx -> tx.first(
                                "SELECT 1 FROM listener_leases l WHERE l.listener = ? AND l.node_id = ? AND l.fence = ?"
                                        + " AND " + ALIVE_HOLDER.formatted("l"),
                                rs -> 1,
                                listener,
                                node,
                                fence,
                                ttlMs))
                .isPresent();
    }

    @Override
    public void releaseListener(String listener) {
        db.write(
                "cluster release listener",
                tx -> tx.update("DELETE FROM listener_leases WHERE listener = ? AND node_id = ?", listener, node));
    }

    @Override
    public List<Node> nodes() {
        return db.read(
                "cluster nodes",
                tx -> tx.list(
                        "SELECT node_id, state, bind, roles, started_at, " + NOW + " - heartbeat_at FROM cluster_nodes"
                                + " ORDER BY started_at DESC LIMIT 100",
                        rs -> new Node(
                                rs.getString(1),
                                rs.getString(2),
                                rs.getString(3),
                                rs.getString(4),
                                Instant.ofEpochMilli(rs.getLong(5)),
                                Duration.ofMillis(Math.max(0, rs.getLong(6))))));
    }

    @Override
    public Map<String, Long> held() {
        return db.read("cluster held", tx -> {
            Map<String, Long> out = new LinkedHashMap<>();
            out.put(
                    "sessions",
                    tx.first("SELECT COUNT(*) FROM session_leases WHERE node_id = ?", rs -> rs.getLong(1), node)
                            .orElse(0L));
            out.put(
                    "listeners",
                    tx.first("SELECT COUNT(*) FROM listener_leases WHERE node_id = ?", rs -> rs.getLong(1), node)
                            .orElse(0L));
            return out;
        });
    }

    @Override
    public boolean awaitWakeUp(Duration max) throws InterruptedException {
        return wakeUps.await(node, max);
    }

    @Override
    public ConfigVersion configVersion() {
        return db.read(
                "cluster config version",
                tx -> tx.first(
                                "SELECT version, digest, node_id FROM cluster_config WHERE id = 1",
                                rs -> new ConfigVersion(rs.getLong(1), rs.getString(2), rs.getString(3)))
                        .orElse(new ConfigVersion(0, "", "")));
    }

    @Override
    public long announceConfig(String digest) {
        return db.write("cluster config announcement", tx -> {
            long version = tx.first(
                            "INSERT INTO cluster_config (id, version, digest, node_id, announced_at) VALUES (1, 1, ?,"
                                    + " ?, now()) ON CONFLICT (id) DO UPDATE SET version = cluster_config.version + 1,"
                                    + " digest = EXCLUDED.digest, node_id = EXCLUDED.node_id, announced_at = now()"
                                    + " RETURNING version",
                            rs -> rs.getLong(1),
                            digest,
                            node)
                    .orElseThrow();
            notify(tx, ClusterWakeUps.EVERY_NODE);
            return version;
        });
    }

    @Override
    public void leave() {
        db.write("cluster leave", tx -> {
            tx.update("DELETE FROM listener_leases WHERE node_id = ?", node);
            return tx.update(
                    "UPDATE cluster_nodes SET state = 'dead', heartbeat_at = " + NOW + " WHERE node_id = ?", node);
        });
    }

    @Override
    public void close() {
        wakeUps.close();
        db.close();
    }
}
