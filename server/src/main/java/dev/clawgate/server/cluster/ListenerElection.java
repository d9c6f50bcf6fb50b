package dev.clawgate.server.cluster;

import dev.clawgate.core.internal.channel.ChannelSupervisor;
import dev.clawgate.core.store.ClusterBook;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listener per pull channel across the cluster (SPEC OP-2, CH-0): at each heartbeat this node takes or renews the
 * database lease of each pull channel it can, and the channel supervisor starts the listener it won and stops one it
 * lost. The lease's fence is what {@link FencedSink} checks before a listener's message is recorded (and so before the
 * platform is acknowledged): a deposed listener's acks and offsets are refused.
 */
final class ListenerElection {
    private static final Logger log = LoggerFactory.getLogger(ListenerElection.class);

    private final ClusterBook book;
    private volatile ChannelSupervisor supervisor;
    private final List<String> pullChannels;
    private final Map<String, Long> fences = new ConcurrentHashMap<>();
    private volatile boolean stopped;

    ListenerElection(ClusterBook book, List<String> pullChannels) {
        this.book = book;
        this.pullChannels = List.copyOf(pullChannels);
    }

    /** The supervisor that starts and stops the listeners; before the first {@link #round}. */
    void attach(ChannelSupervisor owner) {
        this.supervisor = owner;
    }

    /** Whether {@code channel} is one whose listener runs on one node at a time. */
    boolean elected(String channel) {
        return pullChannels.contains(channel);
    }

    /** The fence this node holds {@code channel}'s listener under, or null. */
    Long fence(String channel) {
        return fences.get(channel);
    }

    /** The channels whose listener runs here. */
    List<String> held() {
        return pullChannels.stream().filter(fences::containsKey).toList();
    }

    /** One round: take, renew or give up each pull channel's listener. */
    void round() {
        for (String channel : pullChannels) {
            if (stopped || supervisor == null) return;
            OptionalLong fence = book.acquireListener(channel);
            if (fence.isPresent()) {
                Long before = fences.put(channel, fence.getAsLong());
                if (before == null || before != fence.getAsLong())
                    log.info("cluster: this node is the {} listener now (fence {})", channel, fence.getAsLong());
                if (!supervisor.running(channel)) start(channel);
            } else {
                if (fences.remove(channel) != null) log.warn("cluster: the {} listener moved to another node", channel);
                if (supervisor.running(channel)) supervisor.stop(channel);
            }
        }
    }

    private void start(String channel) {
        try {
            supervisor.start(channel);
        } catch (IllegalStateException e) {
            // SPEC CH-0: said loudly; the lease is given up so a node that can start it takes it
            log.error("cluster: {}; giving its listener up", e.getMessage());
            fences.remove(channel);
            book.releaseListener(channel);
        }
    }

    /** Stops electing; the listeners this node runs keep running until the supervisor closes. */
    void stop() {
        stopped = true;
    }
}
