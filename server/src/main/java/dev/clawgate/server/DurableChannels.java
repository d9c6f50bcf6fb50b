package dev.clawgate.server;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.MessageAdapter;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.inbound.ChannelNames;
import dev.clawgate.core.outbound.Capability;
import dev.clawgate.core.outbound.Durability;
import dev.clawgate.server.config.ConfigException;
import java.util.Map;
import java.util.Optional;

/** Which channels' replies go through the outbox (SPEC OUT-6), and whether the config lets them. */
final class DurableChannels {
    private DurableChannels() {}

    /** The adapter of {@code name}'s channel when its replies go through the outbox (SPEC OUT-6). */
    static Optional<MessageAdapter> durableAdapter(Map<String, Channel> channels, String name) {
        return Optional.ofNullable(channels.get(ChannelNames.split(name).channel()))
                .map(Channel::messageAdapter)
                .filter(a -> a.durability() != Durability.DISABLED);
    }

    /**
     * SPEC OUT-6: {@code required} needs every durable channel to reconcile unknown sends; say which cannot, at start.
     */
    static void requireReconcileWhereDurabilityIsRequired(ClawgateConfig cfg, Map<String, Channel> channels) {
        if (cfg.outbox().durability() != Durability.REQUIRED) return;
        for (Channel ch : channels.values()) {
            MessageAdapter a = ch.messageAdapter();
            if (a.durability() != Durability.DISABLED
                    && !a.capabilities().contains(Capability.RECONCILE_UNKNOWN_SEND)) {
                throw new ConfigException(
                        "outbox.durability = \"required\" needs channels that can reconcile unknown sends, and "
                                + ch.name() + " cannot; use \"best_effort\" or disable that channel");
            }
        }
    }
}
