package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The typing indicator while a turn works (SPEC RP-5): {@link MessageAdapter#typing} at once and every {@link #EVERY}
 * until {@link #stop}, on the turn's timer, so tests move it with a manual clock.
 */
final class TypingRefresh {
    private static final Logger log = LoggerFactory.getLogger(TypingRefresh.class);
    /** Platforms show typing for about 5 s; refreshed before it fades. */
    static final Duration EVERY = Duration.ofSeconds(4);

    private final Scheduler scheduler;
    private final MessageAdapter adapter;
    private final OutboundTarget target;
    private final ReentrantLock lock = new ReentrantLock();
    private Scheduler.Cancellable next;
    private boolean stopped;

    private TypingRefresh(Scheduler scheduler, MessageAdapter adapter, OutboundTarget target) {
        this.scheduler = scheduler;
        this.adapter = adapter;
        this.target = target;
    }

    static TypingRefresh start(Scheduler scheduler, MessageAdapter adapter, OutboundTarget target) {
        TypingRefresh t = new TypingRefresh(scheduler, adapter, target);
        t.tick();
        return t;
    }

    private void tick() {
        lock.lock();
        try {
            if (stopped) return;
            next = scheduler.schedule(EVERY, this::tick);
        } finally {
            lock.unlock();
        }
        try {
            adapter.typing(target);
        } catch (RuntimeException e) {
            log.debug("typing indicator on {} not shown: {}", target.channel(), e.toString());
        }
    }

    /** No more refreshes; safe to call more than once. */
    void stop() {
        lock.lock();
        try {
            stopped = true;
            if (next != null) next.cancel();
            next = null;
        } finally {
            lock.unlock();
        }
    }
}
