package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.store.InboxRecord;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bounded bus between the inbox and the dispatcher (SPEC DI-1): a full bus blocks the submitter (back-pressure);
 * one platform thread takes each record off and routes it.
 */
final class Bus {
    private static final Logger log = LoggerFactory.getLogger(Bus.class);

    private final BlockingQueue<InboxRecord> queue;
    private final Consumer<InboxRecord> route;
    private final Thread loop;
    private volatile boolean closing;

    Bus(int capacity, Consumer<InboxRecord> route) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.route = route;
        this.loop = Thread.ofPlatform().name("clawgate-dispatcher").daemon(true).unstarted(this::drain);
    }

    void start() {
        loop.start();
    }

    /** Blocks while the bus is full. */
    void put(InboxRecord record) throws InterruptedException {
        if (closing) throw new IllegalStateException("dispatcher is closed");
        queue.put(record);
    }

    int depth() {
        return queue.size();
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** Stops taking records; what is still on the bus stays received in the inbox and runs after a restart. */
    void close() {
        closing = true;
        loop.interrupt();
    }

    private void drain() {
        while (!closing) {
            try {
                route.accept(queue.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error("dispatcher failed to route a record; it stays unfinished and runs after a restart", e);
            }
        }
    }
}
