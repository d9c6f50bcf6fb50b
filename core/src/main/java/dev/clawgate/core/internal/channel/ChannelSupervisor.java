package dev.clawgate.core.internal.channel;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelHealth;
import dev.clawgate.core.channel.InboundSink;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every channel listener's lifecycle (SPEC CH-0): it starts each channel's receive side into the inbox, stops it,
 * and starts it again, one channel at a time, whenever asked (cluster mode hands a listener to another node this way).
 * Nothing acknowledged is lost across a stop: a channel acknowledges a platform only after the sink committed the
 * message (IN-4), so what a stopped listener had not confirmed comes again to the next one and the inbox's dedupe
 * (IN-1) drops what was already recorded. A stopped channel shows as unhealthy ("stopped"), so {@code /readyz} and
 * {@code doctor} say so. A channel that cannot start says why, loudly.
 */
public final class ChannelSupervisor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChannelSupervisor.class);

    /**
     * One channel and whether its listener runs; the lock keeps a start and a stop of one channel apart (they do I/O).
     */
    private static final class Slot {
        final Channel channel;
        final ReentrantLock lock = new ReentrantLock();
        volatile boolean running;

        Slot(Channel channel) {
            this.channel = channel;
        }
    }

    private final InboundSink sink;
    private final Map<String, Slot> slots = new LinkedHashMap<>();

    /**
     * @param channels the channels it owns, by name (their order is the start order; stops go in reverse)
     * @param sink where every listener hands what it receives: the inbox
     */
    public ChannelSupervisor(Collection<Channel> channels, InboundSink sink) {
        this.sink = Objects.requireNonNull(sink, "sink");
        for (Channel c : channels) {
            if (slots.putIfAbsent(c.name(), new Slot(c)) != null)
                throw new IllegalArgumentException("two channels named " + c.name());
        }
    }

    /**
     * Starts every listener, in order.
     *
     * @throws IllegalStateException naming the first channel that cannot start, and why; those started before stay
     *     running
     */
    public void startAll() {
        for (String name : slots.keySet()) start(name);
    }

    /**
     * Starts {@code name}'s listener; nothing when it runs already.
     *
     * @throws IllegalStateException when the channel cannot start, saying why (SPEC CH-0: never silence)
     */
    public void start(String name) {
        Slot slot = slot(name);
        slot.lock.lock();
        try {
            if (slot.running) return;
            try {
                slot.channel.start(sink);
            } catch (Exception e) {
                // a channel may have started part of itself (one bot of two): nothing of it keeps running
                try {
                    slot.channel.stop();
                } catch (RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
                throw new IllegalStateException("channel " + name + " could not start: " + e.getMessage(), e);
            }
            slot.running = true;
            log.info("channel {}: listener started", name);
        } finally {
            slot.lock.unlock();
        }
    }

    /**
     * Stops {@code name}'s listener; returns once it stopped taking input. Its sends keep working (replies of turns in
     * flight still go out). Nothing when it is stopped already.
     */
    public void stop(String name) {
        Slot slot = slot(name);
        slot.lock.lock();
        try {
            if (!slot.running) return;
            slot.running = false;
            try {
                slot.channel.stop();
                log.info("channel {}: listener stopped", name);
            } catch (RuntimeException e) {
                log.warn("stopping channel {} failed: {}", name, e.toString());
            }
        } finally {
            slot.lock.unlock();
        }
    }

    /** Stops and starts {@code name}'s listener again. */
    public void restart(String name) {
        stop(name);
        start(name);
    }

    /** Whether {@code name}'s listener runs. */
    public boolean running(String name) {
        return slot(name).running;
    }

    /** The channel's own health while its listener runs; "stopped" otherwise (SPEC CH-0). */
    public ChannelHealth health(String name) {
        Slot slot = slot(name);
        return slot.running ? slot.channel.health() : ChannelHealth.down("stopped");
    }

    /** The channels it owns, in start order. */
    public List<Channel> channels() {
        return slots.values().stream().map(s -> s.channel).toList();
    }

    /** Stops every listener, the last started first. */
    @Override
    public void close() {
        List<String> names = new ArrayList<>(slots.keySet());
        for (String name : names.reversed()) stop(name);
    }

    private Slot slot(String name) {
        Slot slot = slots.get(name);
        if (slot == null) throw new IllegalArgumentException("no channel named " + name);
        return slot;
    }
}
