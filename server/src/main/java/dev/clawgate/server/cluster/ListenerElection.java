package dev.clawgate.server.cluster;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.internal.channel.ChannelSupervisor;
import dev.clawgate.core.store.ClusterBook;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listener per pull account across the cluster (SPEC OP-2, CH-0): at each heartbeat this node takes or renews the
 * database lease of each listener it can, and the channel supervisor starts the listener it won and stops one it lost.
 * A channel that names accounts ({@link Channel#accounts()}) is elected account by account (lease
 * {@code <channel>/<account>}), so its bots spread over the nodes and one that cannot start gives up only its own
 * lease; any other pull channel is elected whole (lease {@code <channel>}). The lease's fence is what
 * {@link FencedSink} checks before a listener's message is recorded (and so before the platform is acknowledged): a
 * deposed listener's acks and offsets are refused.
 */
final class ListenerElection {
    private static final Logger log = LoggerFactory.getLogger(ListenerElection.class);

    /** One elected listener: a pull channel whole ({@code account} null) or one pull account of a channel. */
    record Listener(String channel, String account) {
        /** The lease's name in the cluster's listener table. */
        String key() {
            return account == null ? channel : channel + "/" + account;
        }

        /** The listeners of {@code channels} that must run on one node at a time, in start order. */
        static List<Listener> of(Collection<Channel> channels) {
            List<Listener> out = new ArrayList<>();
            for (Channel ch : channels) {
                if (!ch.accounts().isEmpty()) {
                    for (String a : ch.accounts()) if (ch.pulls(a)) out.add(new Listener(ch.name(), a));
                } else if (ClusterNode.pulls(ch)) {
                    out.add(new Listener(ch.name(), null));
                }
            }
            return out;
        }
    }

    private final ClusterBook book;
    private volatile ChannelSupervisor supervisor;
    private final List<Listener> listeners;
    private final Map<Listener, Long> fences = new ConcurrentHashMap<>();
    private volatile boolean stopped;

    ListenerElection(ClusterBook book, List<Listener> listeners) {
        this.book = book;
        this.listeners = List.copyOf(listeners);
    }

    /** The supervisor that starts and stops the listeners; before the first {@link #round}. */
    void attach(ChannelSupervisor owner) {
        this.supervisor = owner;
    }

    /** Whether {@code channel} is elected whole: its listener runs on one node at a time. */
    boolean elected(String channel) {
        return listeners.contains(new Listener(channel, null));
    }

    /**
     * The elected listener a message of {@code account} of {@code channel} comes from, or null when that listener runs
     * on every node (webhooks, the API).
     */
    Listener listenerOf(String channel, String account) {
        Listener whole = new Listener(channel, null);
        if (listeners.contains(whole)) return whole;
        Listener one = new Listener(channel, account);
        return listeners.contains(one) ? one : null;
    }

    /** The fence this node holds {@code listener} under, or null. */
    Long fence(Listener listener) {
        return fences.get(listener);
    }

    /** The listeners that run here, as lease names ({@code telegram/a}, {@code irc}). */
    List<String> held() {
        return listeners.stream().filter(fences::containsKey).map(Listener::key).toList();
    }

    /** The listeners that run here. */
    List<Listener> heldListeners() {
        return listeners.stream().filter(fences::containsKey).toList();
    }

    /** Whether {@code channel} has elected listeners and none of them runs here. */
    boolean standby(String channel) {
        boolean elects = false;
        for (Listener l : listeners) {
            if (!l.channel().equals(channel)) continue;
            if (fences.containsKey(l)) return false;
            elects = true;
        }
        return elects;
    }

    /** One round: take, renew or give up each elected listener. */
    void round() {
        for (Listener l : listeners) {
            if (stopped || supervisor == null) return;
            OptionalLong fence = book.acquireListener(l.key());
            if (fence.isPresent()) {
                Long before = fences.put(l, fence.getAsLong());
                if (before == null || before != fence.getAsLong())
                    log.info("cluster: this node is the {} listener now (fence {})", l.key(), fence.getAsLong());
                if (!running(l)) start(l);
            } else {
                if (fences.remove(l) != null) log.warn("cluster: the {} listener moved to another node", l.key());
                if (running(l)) stop(l);
            }
        }
    }

    private boolean running(Listener l) {
        return l.account() == null ? supervisor.running(l.channel()) : supervisor.running(l.channel(), l.account());
    }

    private void start(Listener l) {
        try {
            if (l.account() == null) supervisor.start(l.channel());
            else supervisor.startAccount(l.channel(), l.account());
        } catch (IllegalStateException e) {
            // SPEC CH-0: said loudly; the lease is given up so a node that can start it takes it
            log.error("cluster: {}; giving its listener up", e.getMessage());
            fences.remove(l);
            book.releaseListener(l.key());
        }
    }

    private void stop(Listener l) {
        if (l.account() == null) supervisor.stop(l.channel());
        else supervisor.stopAccount(l.channel(), l.account());
    }

    /** Stops electing; the listeners this node runs keep running until the supervisor closes. */
    void stop() {
        stopped = true;
    }
}
