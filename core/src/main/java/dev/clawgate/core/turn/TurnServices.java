package dev.clawgate.core.turn;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.inbound.Scheduler;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.outbound.Delivery;
import dev.clawgate.core.outbound.Outbox;
import dev.clawgate.core.prompt.SystemPromptCache;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.tool.ToolRegistry;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the turn pipeline works with. Suppliers, not values, where the config can change under
 * a running gateway (SPEC RT-3): a turn reads them once, at its start. Final replies of durable
 * channels go through {@code outbox} (SPEC OUT-5), everything else through {@code delivery}; both
 * run the {@code on_message_sending} hook on their payload path. {@code memory} is the long-term
 * memory each turn recalls from and auto-saves to (SPEC ME-1..ME-4). {@code scheduler} times
 * streamed blocks (SPEC OUT-2: idle coalescing, human delay) and the typing refresh (RP-5).
 */
public record TurnServices(
        Store store,
        Function<String, Optional<Channel>> channels,
        Supplier<ProviderDirectory> providers,
        Supplier<ToolRegistry> tools,
        SystemPromptCache prompts,
        InboundHook inboundHook,
        Delivery delivery,
        Outbox outbox,
        Supplier<ClawgateConfig> config,
        Function<SessionKey, Integer> queueDepth,
        Clock clock,
        Memory memory,
        Scheduler scheduler) {
    public TurnServices {
        memory = memory == null ? Memory.NONE : memory;
        scheduler = scheduler == null ? Timer.SHARED : scheduler;
    }

    /** A daemon timer for the gateway's turns; tests pass a manual one instead. */
    private static final class Timer {
        static final Scheduler SHARED = Scheduler.daemon("clawgate-turn-timer");
    }

    /** Without long-term memory (nothing is recalled or saved), with the shared daemon timer. */
    public TurnServices(Store store, Function<String, Optional<Channel>> channels, Supplier<ProviderDirectory> providers,
                        Supplier<ToolRegistry> tools, SystemPromptCache prompts, InboundHook inboundHook, Delivery delivery,
                        Outbox outbox, Supplier<ClawgateConfig> config, Function<SessionKey, Integer> queueDepth, Clock clock) {
        this(store, channels, providers, tools, prompts, inboundHook, delivery, outbox, config, queueDepth, clock, Memory.NONE, null);
    }
}
