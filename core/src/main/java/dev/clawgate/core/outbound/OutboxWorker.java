package dev.clawgate.core.outbound;

import dev.clawgate.core.channel.MessageAdapter;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends outbox retries when they fall due (SPEC OUT-7): one virtual thread, polling the store. */
public final class OutboxWorker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OutboxWorker.class);

    private final Outbox outbox;
    private final Function<String, Optional<MessageAdapter>> adapters;
    private final Pacer pacer;
    private final Duration every;
    private volatile boolean running = true;
    private final Thread thread;

    public OutboxWorker(Outbox outbox, Function<String, Optional<MessageAdapter>> adapters, Pacer pacer, Duration every) {
        this.outbox = Objects.requireNonNull(outbox, "outbox");
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.pacer = Objects.requireNonNull(pacer, "pacer");
        this.every = Objects.requireNonNull(every, "every");
        this.thread = Thread.ofVirtual().name("outbox-retries").unstarted(this::loop);
    }

    public OutboxWorker start() {
        thread.start();
        return this;
    }

    private void loop() {
        while (running) {
            try {
                outbox.retryDue(adapters, pacer);
            } catch (RuntimeException e) {
                // a store hiccup must not end retries for good: log it and try again next round
                log.error("outbox retry pass failed; trying again in {}", every, e);
            }
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
