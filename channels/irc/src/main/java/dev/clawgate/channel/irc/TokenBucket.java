package dev.clawgate.channel.irc;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Flood control for the lines this client writes (SPEC CH-7): a token bucket after RFC 1459 section 8.10, {@code burst}
 * lines at once and then one line per {@code interval}, so the server never sees an excess flood. {@link #take} blocks
 * (a virtual thread parks) until a line may go; senders queue on its lock, so lines leave in the order they were asked
 * for.
 */
final class TokenBucket {
    /** Waits a number of nanoseconds; tests pass one that moves a manual clock instead. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private final int burst;
    private final long intervalNanos;
    private final LongSupplier clock;
    private final Sleeper sleeper;
    private final ReentrantLock lock = new ReentrantLock();
    private double tokens;
    private long last;

    TokenBucket(int burst, Duration interval) {
        this(burst, interval, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
    }

    TokenBucket(int burst, Duration interval, LongSupplier clock, Sleeper sleeper) {
        if (burst < 1) throw new IllegalArgumentException("burst must be at least 1");
        if (interval.isNegative() || interval.isZero()) throw new IllegalArgumentException("interval must be positive");
        this.burst = burst;
        this.intervalNanos = interval.toNanos();
        this.clock = clock;
        this.sleeper = sleeper;
        this.tokens = burst;
        this.last = clock.getAsLong();
    }

    /** Waits until a line may be written, and counts it. */
    void take() throws InterruptedException {
        lock.lock();
        try {
            refill();
            while (tokens < 1) {
                sleeper.sleep(Math.max((long) Math.ceil((1 - tokens) * intervalNanos), 1));
                refill();
            }
            tokens -= 1;
        } finally {
            lock.unlock();
        }
    }

    private void refill() {
        long now = clock.getAsLong();
        tokens = Math.min(burst, tokens + (double) (now - last) / intervalNanos);
        last = now;
    }
}
