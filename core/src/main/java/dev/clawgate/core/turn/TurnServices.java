package dev.clawgate.core.turn;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.hook.SendingHook;
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
 * channels go through {@code outbox} (SPEC OUT-5), everything else through {@code delivery}.
 */
public record TurnServices(
        Store store,
        Function<String, Optional<Channel>> channels,
        Supplier<ProviderDirectory> providers,
        Supplier<ToolRegistry> tools,
        SystemPromptCache prompts,
        InboundHook inboundHook,
        SendingHook sendingHook,
        Delivery delivery,
        Outbox outbox,
        Supplier<ClawgateConfig> config,
        Function<SessionKey, Integer> queueDepth,
        Clock clock) {}
