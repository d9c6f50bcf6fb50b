package dev.clawgate.channel.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts rejected webhook requests and logs them at most once per interval (SPEC IN-5: counted, logged rate-limited,
 * not stored), so a flood of forged requests cannot flood the log.
 */
final class RejectionLog {
    private static final Logger log = LoggerFactory.getLogger(RejectionLog.class);

    private final Duration interval;
    private final Clock clock;
    private final AtomicLong total = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private Instant lastLogged;
    private long unlogged;

    RejectionLog(Duration interval, Clock clock) {
        this.interval = interval;
        this.clock = clock;
    }

    /** Counts one rejection; returns whether it was logged (the first of each interval is). */
    boolean reject(String path, String remoteAddress, String why) {
        total.incrementAndGet();
        Instant now = clock.instant();
        long suppressed;
        lock.lock();
        try {
            if (lastLogged != null && now.isBefore(lastLogged.plus(interval))) {
                unlogged++;
                return false;
            }
            suppressed = unlogged;
            unlogged = 0;
            lastLogged = now;
        } finally {
            lock.unlock();
        }
        log.warn(
                "webhook {} rejected a request from {}: {}{}",
                path,
                remoteAddress,
                why,
                suppressed > 0 ? " (" + suppressed + " more rejected since the last report)" : "");
        return true;
    }

    long total() {
        return total.get();
    }
}
