package dev.clawgate.channel.webhook;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.config.ChannelSettings;

/** Found by {@link java.util.ServiceLoader}: builds the webhook channel from {@code [channels.webhook]}. */
public final class WebhookChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return WebhookChannel.NAME;
    }

    @Override
    public Channel create(ChannelSettings settings) {
        return new WebhookChannel(WebhookChannelSettings.from(settings));
    }
}
