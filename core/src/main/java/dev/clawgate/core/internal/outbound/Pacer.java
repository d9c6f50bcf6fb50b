package dev.clawgate.core.internal.outbound;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Spaces replayed sends per channel (SPEC OUT-7) so a backlog after a restart cannot trip the platform's rate limits:
 * at most {@code perSecond} sends per channel.
 */
public final class Pacer {
    /** Waits; a test passes one that advances a manual clock. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    public static final Pacer NONE = new Pacer(Integer.MAX_VALUE, Clock.systemUTC(), d -> {});

    private final Duration gap;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Map<String, Instant> nextSlot = new HashMap<>();
    private final ReentrantLock lock = new ReentrantLock();

    public Pacer(int perSecond, Clock clock, Sleeper sleeper) {
        if (perSecond < 1) throw new IllegalArgumentException("perSecond must be at least 1, got " + perSecond);
        this.gap = perSecond == Integer.MAX_VALUE ? Duration.ZERO : Duration.ofNanos(1_000_000_000L / perSecond);
        this.clock = clock;
        this.sleeper = sleeper;
    }

    public static Pacer perSecond(int perSecond) {
        return new Pacer(perSecond, Clock.systemUTC(), d -> Thread.sleep(d));
    }

    /** Returns when {@code channel} may send again, having taken its slot. */
    public void await(String channel) {
        if (gap.isZero()) return;
        Instant slot;
        lock.lock();
        try {
            Instant now = clock.instant();
            Instant next = nextSlot.getOrDefault(channel, now);
            slot = next.isBefore(now) ? now : next;
            nextSlot.put(channel, slot.plus(gap));
        } finally {
            lock.unlock();
        }
        Duration wait = Duration.between(clock.instant(), slot);
        if (wait.isNegative() || wait.isZero()) return;
        try {
            sleeper.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pacing sends to " + channel, e);
        }
    }
}
