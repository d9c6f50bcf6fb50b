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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every channel listener's lifecycle (SPEC CH-0): it starts each channel's receive side into the inbox, stops it,
 * and starts it again, one channel at a time, or one account of a channel that names accounts
 * ({@link Channel#accounts()}), whenever asked (cluster mode hands a listener to another node this way). Nothing
 * acknowledged is lost across a stop: a channel acknowledges a platform only after the sink committed the message
 * (IN-4), so what a stopped listener had not confirmed comes again to the next one and the inbox's dedupe (IN-1) drops
 * what was already recorded. A stopped channel shows as unhealthy ("stopped"), so {@code /readyz} and {@code doctor}
 * say so. A channel that cannot start says why, loudly.
 */
public final class ChannelSupervisor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChannelSupervisor.class);

    /**
     * One channel, whether it runs whole, and which of its accounts run one by one; the lock keeps starts and stops of
     * one channel apart (they do I/O).
     */
    private static final class Slot {
        final Channel channel;
        final ReentrantLock lock = new ReentrantLock();
        volatile boolean running;
        final Set<String> accounts = ConcurrentHashMap.newKeySet();

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
            if (!slot.accounts.isEmpty())
                throw new IllegalStateException("channel " + name + " runs account by account " + slot.accounts);
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
     * Starts the listener of {@code account} of {@code name} alone (SPEC OP-2: a cluster elects each account); nothing
     * when it runs already, the channel whole included.
     *
     * @throws IllegalStateException when the account cannot start, saying why (SPEC CH-0); the others keep running
     */
    public void startAccount(String name, String account) {
        Slot slot = account(name, account);
        slot.lock.lock();
        try {
            if (slot.running || slot.accounts.contains(account)) return;
            try {
                slot.channel.startAccount(account, sink);
            } catch (Exception e) {
                try {
                    slot.channel.stopAccount(account);
                } catch (RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
                throw new IllegalStateException(
                        "channel " + name + " account " + account + " could not start: " + e.getMessage(), e);
            }
            slot.accounts.add(account);
            log.info("channel {}: listener of account {} started", name, account);
        } finally {
            slot.lock.unlock();
        }
    }

    /** Stops the listener of {@code account} of {@code name}, which runs alone; the other accounts keep running. */
    public void stopAccount(String name, String account) {
        Slot slot = account(name, account);
        slot.lock.lock();
        try {
            if (!slot.accounts.remove(account)) return;
            try {
                slot.channel.stopAccount(account);
                log.info("channel {}: listener of account {} stopped", name, account);
            } catch (RuntimeException e) {
                log.warn("stopping channel {} account {} failed: {}", name, account, e.toString());
            }
        } finally {
            slot.lock.unlock();
        }
    }

    /**
     * Stops {@code name}'s listener, or every account of it that runs alone; returns once it stopped taking input. Its
     * sends keep working (replies of turns in flight still go out). Nothing when it is stopped already.
     */
    public void stop(String name) {
        Slot slot = slot(name);
        slot.lock.lock();
        try {
            if (!slot.running && slot.accounts.isEmpty()) return;
            slot.running = false;
            slot.accounts.clear();
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

    /** Whether {@code name}'s listener runs, whole or some of its accounts. */
    public boolean running(String name) {
        Slot slot = slot(name);
        return slot.running || !slot.accounts.isEmpty();
    }

    /** Whether the listener of {@code account} of {@code name} runs, alone or with the channel whole. */
    public boolean running(String name, String account) {
        Slot slot = slot(name);
        return slot.running || slot.accounts.contains(account);
    }

    /** The channel's own health while its listener (or one of its accounts) runs; "stopped" otherwise (SPEC CH-0). */
    public ChannelHealth health(String name) {
        return running(name) ? slot(name).channel.health() : ChannelHealth.down("stopped");
    }

    /** The health of {@code account}'s listener while it runs; "stopped" otherwise. */
    public ChannelHealth health(String name, String account) {
        return running(name, account) ? slot(name).channel.health(account) : ChannelHealth.down("stopped");
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

    private Slot account(String name, String account) {
        Slot slot = slot(name);
        if (!slot.channel.accounts().contains(account))
            throw new IllegalArgumentException("channel " + name + " has no account listener " + account);
        return slot;
    }

    private Slot slot(String name) {
        Slot slot = slots.get(name);
        if (slot == null) throw new IllegalArgumentException("no channel named " + name);
        return slot;
    }
}
