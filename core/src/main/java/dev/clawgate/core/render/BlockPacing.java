package dev.clawgate.core.render;

import dev.clawgate.core.internal.render.BlockSink;
import dev.clawgate.core.internal.render.HumanDelay;
import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;

/**
 * The timing of a block stream (SPEC OUT-2): the coalescing idle timer, and the human delay each block after the first
 * waits before it reaches the sink. Time comes only from the {@link Scheduler}; its callbacks take the stream's lock,
 * so the sink is called under it, in order.
 */
final class BlockPacing {
    private final Scheduler scheduler;
    private final RandomGenerator random;
    private final HumanDelay humanDelay;
    private final BlockSink sink;
    private final ReentrantLock lock;
    private final Queue<String> ready = new ArrayDeque<>();
    private boolean sentFirst;
    private boolean stopped;
    private Scheduler.Cancellable idleTimer;
    private Scheduler.Cancellable delayTimer;

    BlockPacing(
            Scheduler scheduler, RandomGenerator random, HumanDelay humanDelay, BlockSink sink, ReentrantLock lock) {
        this.scheduler = scheduler;
        this.random = random;
        this.humanDelay = humanDelay;
        this.sink = sink;
        this.lock = lock;
    }

    /** (Re)starts the idle timer: {@code onIdle} runs under the lock once {@code after} passes without a restart. */
    void idleIn(Duration after, Runnable onIdle) {
        cancelIdle();
        idleTimer = scheduler.schedule(after, () -> {
            lock.lock();
            try {
                idleTimer = null;
                onIdle.run();
            } finally {
                lock.unlock();
            }
        });
    }

    void cancelIdle() {
        if (idleTimer != null) idleTimer.cancel();
        idleTimer = null;
    }

    /** Sends a block now, or after the human delay when it is not the first. */
    void deliver(String block) {
        ready.add(block);
        pump();
    }

    /** Whether no block waits for its delay. */
    boolean isEmpty() {
        return ready.isEmpty();
    }

    /**
     * Stops both timers and hands back the blocks still waiting for their delay, oldest first; nothing is sent any
     * more.
     */
    List<String> stop() {
        stopped = true;
        cancelIdle();
        if (delayTimer != null) delayTimer.cancel();
        delayTimer = null;
        List<String> waiting = new ArrayList<>(ready);
        ready.clear();
        return waiting;
    }

    private void pump() {
        while (delayTimer == null && !ready.isEmpty()) {
            if (sentFirst && !humanDelay.isOff()) {
                delayTimer = scheduler.schedule(humanDelay.next(random), this::onDelay);
                return;
            }
            sentFirst = true;
            sink.send(ready.remove());
        }
    }

    private void onDelay() {
        lock.lock();
        try {
            delayTimer = null;
            if (stopped || ready.isEmpty()) return;
            sink.send(ready.remove());
            pump();
        } finally {
            lock.unlock();
        }
    }
}
