package dev.clawgate.server.control;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.channel.ChannelSupervisor;
import dev.clawgate.core.internal.dispatch.Dispatcher;
import dev.clawgate.core.store.Store;
import dev.clawgate.server.MemoryRecall;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the control API reads and acts on (SPEC OP-3): the running gateway's store, its channel supervisor (health,
 * CH-0) and dispatcher (queue depths, OP-5), its config in force, when it started and its memory recall (ME-5).
 */
public record ControlSources(
        Store store,
        ChannelSupervisor channels,
        Dispatcher dispatcher,
        Supplier<ClawgateConfig> config,
        Instant startedAt,
        MemoryRecall recall) {
    public ControlSources {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(channels, "channels");
        Objects.requireNonNull(dispatcher, "dispatcher");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(recall, "recall");
    }
}
