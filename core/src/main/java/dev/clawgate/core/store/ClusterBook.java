package dev.clawgate.core.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The cluster's shared state in its PostgreSQL store (SPEC OP-2): the nodes and their heartbeats, per-session leases
 * (one run per session across the cluster, DI-1), hand-offs of records to the node running their session, and one
 * elected listener per pull channel or account (CH-0), all with fencing. Liveness is judged by the database's clock.
 * Every method is its own transaction; thread-safe.
 */
public interface ClusterBook extends AutoCloseable {

    /** One node as the cluster sees it. */
    record Node(String nodeId, String state, String bind, String roles, Instant startedAt, Duration heartbeatAge) {
        public boolean alive() {
            return "alive".equals(state);
        }
    }

    /**
     * Where a recorded message's session runs.
     *
     * @param owner the node holding the session's lease
     * @param run the records this node must run now, oldest first: the message alone, or (when this node just took the
     *     session over from a dead node) every unfinished record of the session; empty when another node runs it
     */
    record SessionClaim(String owner, List<InboxRecord> run) {}

    /** This node's id. */
    String nodeId();

    /**
     * Registers this node as alive. A node id joining again (a configured {@code cluster.node_id} after a restart)
     * takes what its previous process left: its sends cut mid-way become {@code unknown_after_send}.
     *
     * @return the unfinished records of the sessions its previous process held, oldest first, to run again
     */
    List<InboxRecord> join(String bind);

    /**
     * Renews this node's heartbeat and publishes its roles.
     *
     * @return false when the cluster declared this node dead meanwhile: it is fenced and must leave
     */
    boolean heartbeat(String roles);

    /**
     * Declares dead every node whose heartbeat lapsed past the lease TTL: their listener leases and hand-offs are
     * dropped, and their outbox entries still {@code sending} become {@code unknown_after_send}, never resent blindly
     * (SPEC OUT-7, OUT-12). Records a dead node took but had not yet handed to the live node running their session
     * (killed between the two) are handed to that node now (SPEC IN-4).
     *
     * @return the nodes this call declared dead
     */
    List<String> sweep();

    /**
     * Takes over up to {@code limit} sessions whose lease holder is dead.
     *
     * @return the unfinished inbox records of those sessions, oldest first, to run again here (SPEC IN-4)
     */
    List<InboxRecord> takeOverSessions(int limit);

    /** Takes or confirms the lease of {@code record}'s session, or names the live node that holds it. */
    SessionClaim claimSession(InboxRecord record);

    /**
     * Gives {@code inboxId} to {@code node}, which runs its session, and wakes it; nothing when this node was declared
     * dead meanwhile (fencing: the sweep that declared it handed its records on) or {@code node} holds it already.
     */
    void handOff(long inboxId, String node);

    /** The records other nodes handed to this one, oldest first; each is given once. */
    List<InboxRecord> takeHandoffs();

    /**
     * Takes or renews the listener lease of {@code listener} while its holder is alive.
     *
     * @return the lease's fence when this node holds it; empty when a live node does
     */
    OptionalLong acquireListener(String listener);

    /** Whether this node still holds {@code listener} under {@code fence} and is alive: the fencing check. */
    boolean holdsListener(String listener, long fence);

    /** Gives {@code listener} up (this node stops listening). */
    void releaseListener(String listener);

    /** Every node that joined, newest first. */
    List<Node> nodes();

    /** What this node holds: {@code sessions}, {@code listeners} (counts). */
    Map<String, Long> held();

    /** Waits up to {@code max} for another node's wake-up (LISTEN/NOTIFY); true when woken. */
    boolean awaitWakeUp(Duration max) throws InterruptedException;

    /**
     * The config the cluster last announced (SPEC OP-2, RT-3): a version bumped at each announcement, the digest of the
     * announcing node's reloadable sections and that node's id.
     */
    record ConfigVersion(long version, String digest, String nodeId) {}

    /** The config version last announced, or version 0 with an empty digest when none was. */
    ConfigVersion configVersion();

    /**
     * Announces that this node put a reloaded config in force: bumps the version, stores {@code digest} and wakes every
     * node (NOTIFY); returns the new version.
     */
    long announceConfig(String digest);

    /** Leaves the cluster at once: the node is marked dead, so others take its sessions and listeners now. */
    void leave();

    @Override
    void close();
}
