package dev.clawgate.core.internal.turn;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.internal.multimodal.PublicWeb;
import dev.clawgate.core.internal.outbound.Delivery;
import dev.clawgate.core.internal.outbound.Outbox;
import dev.clawgate.core.internal.run.SessionStatus;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.prompt.SystemPromptCache;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.Store;
import dev.clawgate.core.tool.ToolRegistry;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the turn pipeline works with. Suppliers, not values, where the config can change under a running gateway (SPEC
 * RT-3): a turn reads them once, at its start. Final replies of durable channels go through {@code outbox} (SPEC
 * OUT-5), everything else through {@code delivery}; both run the {@code on_message_sending} hook on their payload path.
 * {@code memory} is the long-term memory each turn recalls from and auto-saves to (SPEC ME-1..ME-4). {@code scheduler}
 * times streamed blocks (SPEC OUT-2: idle coalescing, human delay) and the typing refresh (RP-5). {@code sessionStatus}
 * is what the dispatcher knows of a session now: queue depth, the active run and the tool it waits on (SPEC RT-1
 * {@code /status}). {@code web} fetches remote images when {@code multimodal.allow_remote_fetch} is on (SPEC AG-4).
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
        Function<SessionKey, SessionStatus> sessionStatus,
        Clock clock,
        Memory memory,
        Scheduler scheduler,
        PublicWeb web) {
    public TurnServices {
        memory = memory == null ? Memory.NONE : memory;
        scheduler = scheduler == null ? Timer.SHARED : scheduler;
        web = web == null ? PublicWeb.unavailable() : web;
    }

    /** A daemon timer for the gateway's turns; tests pass a manual one instead. */
    private static final class Timer {
        static final Scheduler SHARED = Scheduler.daemon("clawgate-turn-timer");
    }

    /**
     * A builder: the store, the channels, providers, tools, prompts, delivery, outbox, config and session status must
     * be set; the rest default to no inbound hook, the UTC clock, no long-term memory, the shared daemon timer and no
     * remote image fetching.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Names each service of a {@link TurnServices}. */
    public static final class Builder {
        private Store store;
        private Function<String, Optional<Channel>> channels;
        private Supplier<ProviderDirectory> providers;
        private Supplier<ToolRegistry> tools;
        private SystemPromptCache prompts;
        private InboundHook inboundHook = InboundHook.PASS;
        private Delivery delivery;
        private Outbox outbox;
        private Supplier<ClawgateConfig> config;
        private Function<SessionKey, SessionStatus> sessionStatus;
        private Clock clock = Clock.systemUTC();
        private Memory memory = Memory.NONE;
        private Scheduler scheduler = Timer.SHARED;
        private PublicWeb web = PublicWeb.unavailable();

        private Builder() {}

        public Builder store(Store store) {
            this.store = store;
            return this;
        }

        public Builder channels(Function<String, Optional<Channel>> channels) {
            this.channels = channels;
            return this;
        }

        public Builder providers(Supplier<ProviderDirectory> providers) {
            this.providers = providers;
            return this;
        }

        public Builder tools(Supplier<ToolRegistry> tools) {
            this.tools = tools;
            return this;
        }

        public Builder prompts(SystemPromptCache prompts) {
            this.prompts = prompts;
            return this;
        }

        public Builder inboundHook(InboundHook inboundHook) {
            this.inboundHook = inboundHook;
            return this;
        }

        public Builder delivery(Delivery delivery) {
            this.delivery = delivery;
            return this;
        }

        public Builder outbox(Outbox outbox) {
            this.outbox = outbox;
            return this;
        }

        public Builder config(Supplier<ClawgateConfig> config) {
            this.config = config;
            return this;
        }

        public Builder sessionStatus(Function<SessionKey, SessionStatus> sessionStatus) {
            this.sessionStatus = sessionStatus;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public Builder memory(Memory memory) {
            this.memory = memory;
            return this;
        }

        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        public Builder web(PublicWeb web) {
            this.web = web;
            return this;
        }

        public TurnServices build() {
            return new TurnServices(
                    Objects.requireNonNull(store, "store"),
                    Objects.requireNonNull(channels, "channels"),
                    Objects.requireNonNull(providers, "providers"),
                    Objects.requireNonNull(tools, "tools"),
                    Objects.requireNonNull(prompts, "prompts"),
                    Objects.requireNonNull(inboundHook, "inboundHook"),
                    Objects.requireNonNull(delivery, "delivery"),
                    Objects.requireNonNull(outbox, "outbox"),
                    Objects.requireNonNull(config, "config"),
                    Objects.requireNonNull(sessionStatus, "sessionStatus"),
                    Objects.requireNonNull(clock, "clock"),
                    memory,
                    scheduler,
                    web);
        }
    }
}
