package dev.clawgate.server;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.inspect.TurnInspector;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.internal.memory.Consolidation;
import dev.clawgate.core.internal.memory.Consolidator;
import dev.clawgate.core.internal.memory.MemoryHygiene;
import dev.clawgate.core.internal.turn.ModelChoice;
import dev.clawgate.core.internal.turn.ModelSelector;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.store.StoreException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Memory kept up off every turn's path: consolidation after each turn (SPEC ME-6) and the hourly ageing out of
 * conversation memories (ME-7, OP-7), with the tidying of the keyword index (issue 27).
 */
final class MemoryUpkeep {
    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    private MemoryUpkeep() {}

    /** SPEC ME-6: after each turn, off its reply path; bounded, fire and forget. */
    static Consolidation startConsolidation(
            Store store,
            AtomicReference<ClawgateConfig> config,
            AtomicReference<ConfiguredProviders> providers,
            Runnable afterTurn) {
        return new Consolidation(
                        new Consolidator(
                                store,
                                store.memory(),
                                () -> config.get().memory(),
                                () -> consolidationModel(config, providers)),
                        () -> config.get().memory(),
                        config.get().memory().consolidationQueue(),
                        Clock.systemUTC())
                .followedBy(afterTurn)
                .start();
    }

    /**
     * The agent's default model, as a turn without routes or a /model choice gets it: what consolidation asks (SPEC
     * ME-6).
     */
    private static Optional<ModelRoute> consolidationModel(
            AtomicReference<ClawgateConfig> config, AtomicReference<ConfiguredProviders> providers) {
        ClawgateConfig now = config.get();
        ModelChoice choice = ModelSelector.choose("", Optional.empty(), now.agent(), List.of(), providers.get());
        return choice.available() ? Optional.of(choice.primary()) : Optional.empty();
    }

    /** SPEC ME-7, OP-7: checks at start and every hour; shut the returned timer down to stop it. */
    static ScheduledExecutorService startHygiene(Store store, Supplier<ClawgateConfig> config) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("memory-hygiene").factory());
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        int removed = MemoryHygiene.expire(
                                store.memory(), config.get().memory(), Instant.now());
                        if (removed > 0) log.info("memory hygiene: removed {} expired conversation memories", removed);
                        // issue 27: recall reads one FTS segment, not the dozens an hour of writes leaves
                        MemoryHygiene.optimize(store.memory(), config.get().memory());
                        // SPEC OP-8: recorded turns older than inspector.retention go with the same hourly job
                        TurnInspector.prune(store.turns(), config.get().inspector(), Instant.now());
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
