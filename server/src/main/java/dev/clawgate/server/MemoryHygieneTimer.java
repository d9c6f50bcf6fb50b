package dev.clawgate.server;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.memory.MemoryHygiene;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** SPEC ME-7, OP-7: the one timer that ages out conversation memories, off every turn's path. */
final class MemoryHygieneTimer {
    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    private MemoryHygieneTimer() {}

    /** Checks at start and every hour; shut the returned timer down to stop it. */
    static ScheduledExecutorService start(Store store, Supplier<ClawgateConfig> config) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("memory-hygiene").factory());
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        int removed = MemoryHygiene.expire(
                                store.memory(), config.get().memory(), Instant.now());
                        if (removed > 0) log.info("memory hygiene: removed {} expired conversation memories", removed);
                    } catch (StoreException e) {
                        log.warn(
                                "memory hygiene failed; trying again in {}: {}",
                                MemoryHygiene.INTERVAL,
                                e.getMessage());
                    }
                },
                0,
                MemoryHygiene.INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
        return timer;
    }
}
