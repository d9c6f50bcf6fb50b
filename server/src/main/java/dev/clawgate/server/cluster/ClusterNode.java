package dev.clawgate.server.cluster;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.InboundSink;
import dev.clawgate.core.internal.channel.ChannelSupervisor;
import dev.clawgate.core.internal.dispatch.Dispatcher;
import dev.clawgate.core.internal.dispatch.SessionOwnership;
import dev.clawgate.core.store.ClusterBook;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.StoreException;
import dev.clawgate.server.config.Deployment;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This gateway as one node of a cluster on one PostgreSQL (SPEC OP-2): it heartbeats, declares lapsed nodes dead and
 * takes over their sessions (their unfinished records run again here, at most once more: IN-4) and their listeners; it
 * decides for the dispatcher which node runs each session (one run per session across the cluster, DI-1), handing a
 * record of another node's session to that node (woken by NOTIFY, polled otherwise), so {@code /stop}, {@code /new} and
 * every queue mode act where the session runs (DI-3, DI-5). A node that finds itself declared dead (a pause past its
 * lease) is fenced: it refuses to record, and leaves.
 */
public final class ClusterNode implements SessionOwnership, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClusterNode.class);
    private static final int TAKEOVER_BATCH = 500;

    private final ClusterBook book;
    private final Deployment.Cluster settings;
    private final Duration inboxMaxAge;
    private final Runnable onFenced;
    private Dispatcher dispatcher;
    private ListenerElection election;
    private volatile long lastBeat = System.nanoTime();
    private volatile boolean closed;
    private Thread beats;
    private Thread handoffs;
    private final ConfigFollower config;

    /** @param onFenced what to do once the cluster declared this node dead: the server halts the process */
    public ClusterNode(ClusterBook book, Deployment.Cluster settings, Duration inboxMaxAge, Runnable onFenced) {
        this.book = book;
        this.settings = settings;
        this.inboxMaxAge = inboxMaxAge;
        this.onFenced = onFenced;
        this.config = new ConfigFollower(book);
    }

    /** Whether {@code ch}'s listener must run on one node at a time: it pulls (polls or holds a socket). */
    public static boolean pulls(Channel ch) {
        return !ch.requestResponse() && !ch.ownerChannel() && ch.webhookRoutes().isEmpty();
    }

    /** The sink the channel supervisor hands every listener: the inbox behind this node's fences. */
    public InboundSink sink(InboundSink inbox, java.util.Collection<Channel> channels) {
        this.election = new ListenerElection(book, ListenerElection.Listener.of(channels));
        return new FencedSink(inbox, election, book, this::alive);
    }

    /**
     * Joins the cluster and starts: what this node id's previous process left runs again, the channels and accounts
     * that every node runs (webhooks, the API) start, and the pull channels and accounts start where the election puts
     * them.
     */
    public void start(Dispatcher dispatcher, ChannelSupervisor supervisor, String bind) throws InterruptedException {
        this.dispatcher = dispatcher;
        election.attach(supervisor);
        dispatcher.ownership(this);
        List<InboxRecord> left = book.join(bind);
        lastBeat = System.nanoTime();
        log.info(
                "cluster: node {} joined (heartbeat {}, lease {})",
                book.nodeId(),
                settings.heartbeatInterval(),
                settings.leaseTtl());
        if (!left.isEmpty()) dispatcher.rerun(left, inboxMaxAge);
        for (Channel ch : supervisor.channels()) {
            if (ch.accounts().isEmpty()) {
                if (!election.elected(ch.name())) supervisor.start(ch.name());
            } else {
                for (String a : ch.accounts()) if (!ch.pulls(a)) supervisor.startAccount(ch.name(), a);
            }
        }
        beat();
        // a platform thread: a heartbeat must not wait behind busy virtual-thread carriers, or a loaded node looks dead
        beats = Thread.ofPlatform().daemon().name("clawgate-cluster-heartbeat").start(this::beatLoop);
        handoffs = Thread.ofVirtual().name("clawgate-cluster-handoffs").start(this::handoffLoop);
    }

    /** Whether this node's last heartbeat is recent enough that no other node may have taken its work. */
    boolean alive() {
        Duration window = settings.leaseTtl().minus(settings.heartbeatInterval());
        return !closed && System.nanoTime() - lastBeat < window.toNanos();
    }

    @Override
    public List<InboxRecord> claim(InboxRecord record) {
        ClusterBook.SessionClaim c = book.claimSession(record);
        if (!c.owner().equals(book.nodeId())) {
            book.handOff(record.id(), c.owner());
            return List.of();
        }
        if (c.run().size() == 1 && c.run().getFirst().id() == record.id()) return c.run();
        // taken from a dead node: its unfinished records first, by the restart rules (SPEC IN-4)
        try {
            dispatcher.rerun(c.run(), inboxMaxAge);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.of();
    }

    private void beatLoop() {
        while (!closed) {
            try {
                Thread.sleep(settings.heartbeatInterval());
                beat();
            } catch (InterruptedException e) {
                return;
            } catch (StoreException e) {
                log.warn("cluster: heartbeat round failed: {}", e.getMessage());
            }
        }
    }

    private void beat() throws InterruptedException {
        if (closed) return;
        if (!book.heartbeat(roles())) {
            log.error(
                    "cluster: node {} was declared dead by the cluster (paused or cut off past its lease); its"
                            + " work was taken over; leaving",
                    book.nodeId());
            closed = true;
            election.stop();
            onFenced.run();
            return;
        }
        lastBeat = System.nanoTime();
        for (String dead : book.sweep()) log.warn("cluster: node {} stopped heartbeating; taking over its work", dead);
        List<InboxRecord> taken = book.takeOverSessions(TAKEOVER_BATCH);
        if (!taken.isEmpty()) {
            int n = dispatcher.rerun(taken, inboxMaxAge);
            log.info("cluster: took over sessions of dead nodes; {} unfinished records run again here", n);
        }
        election.round();
        configRound();
    }

    /**
     * Tells the cluster that this node put a reloaded config in force (SPEC OP-2, RT-3): the others re-read their own
     * files, at once (NOTIFY) or at their next heartbeat (the version in the database).
     */
    public void announceConfig(String digest) {
        config.announce(digest);
    }

    /**
     * Follows the cluster's config announcements from now on: each newer one re-reads this node's file with
     * {@code reRead}; a file whose reloadable sections differ from the announcing node's is named in a warning.
     */
    public void followConfig(Runnable reRead, Supplier<String> digest) {
        config.follow(reRead, digest);
    }

    private void configRound() {
        if (!closed) config.round();
    }

    private void handoffLoop() {
        Duration wait =
                Duration.ofMillis(Math.min(500, settings.heartbeatInterval().toMillis() / 2));
        while (!closed) {
            try {
                for (InboxRecord r : book.takeHandoffs()) dispatcher.submitHere(r);
                // a wake-up for every node announces a config reload (SPEC OP-2, RT-3)
                if (book.awaitWakeUp(wait)) configRound();
            } catch (InterruptedException e) {
                return;
            } catch (StoreException | IllegalStateException e) {
                if (closed) return;
                log.warn("cluster: taking hand-offs failed: {}", e.getMessage());
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    private String roles() {
        List<String> held = election.held();
        return held.isEmpty() ? "standby" : "listener:" + String.join(",", held);
    }

    /**
     * Whether {@code channel}'s listeners run on other nodes and none here (nor a webhook account of it): not a fault
     * of this one (SPEC CH-0, OP-3).
     */
    public boolean standby(String channel, boolean runsHere) {
        return election != null && !runsHere && election.standby(channel);
    }

    /** What {@code /readyz} shows about the cluster (SPEC OP-3). */
    public Map<String, String> readiness() {
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("cluster.node", book.nodeId());
        parts.put("cluster.role", roles());
        try {
            Map<String, Long> held = book.held();
            parts.put("cluster.session_leases", String.valueOf(held.get("sessions")));
            long alive = book.nodes().stream().filter(ClusterBook.Node::alive).count();
            parts.put("cluster.nodes_alive", String.valueOf(alive));
        } catch (StoreException e) {
            parts.put("cluster.view", "unavailable");
        }
        return parts;
    }

    /** Prometheus lines: this node's listeners, leases and the cluster view (SPEC OP-3, OP-5). */
    public String scrape() {
        StringBuilder out = new StringBuilder();
        out.append("# TYPE clawgate_cluster_listener gauge\n");
        // a channel elected whole has an empty account label (Prometheus reads it as no label)
        for (ListenerElection.Listener l : election.heldListeners()) {
            out.append("clawgate_cluster_listener{channel=\"" + l.channel() + "\",account=\""
                    + (l.account() == null ? "" : l.account()) + "\"} 1\n");
        }
        try {
            Map<String, Long> held = book.held();
            out.append("# TYPE clawgate_cluster_session_leases gauge\n");
            out.append("clawgate_cluster_session_leases " + held.get("sessions") + "\n");
            out.append("# TYPE clawgate_cluster_nodes_alive gauge\n");
            out.append("clawgate_cluster_nodes_alive "
                    + book.nodes().stream().filter(ClusterBook.Node::alive).count() + "\n");
        } catch (StoreException e) {
            log.debug("cluster metrics unavailable: {}", e.getMessage());
        }
        out.append("# TYPE clawgate_cluster_alive gauge\nclawgate_cluster_alive " + (alive() ? 1 : 0) + "\n");
        return out.toString();
    }

    /** Stops electing and heartbeating-driven takeovers; the listeners stop with the supervisor. */
    public void quiesce() {
        if (election != null) election.stop();
    }

    /** Leaves the cluster: other nodes take this node's sessions (running again what it left unfinished) at once. */
    @Override
    public void close() {
        boolean wasClosed = closed;
        closed = true;
        if (beats != null) beats.interrupt();
        if (handoffs != null) handoffs.interrupt();
        try {
            if (!wasClosed) book.leave();
        } catch (StoreException e) {
            log.warn("cluster: leaving failed ({}); the others take over once the lease lapses", e.getMessage());
        }
        book.close();
    }
}
