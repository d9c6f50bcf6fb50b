package dev.clawgate.channel.webhook;

import dev.clawgate.core.channel.Channel;
import dev.clawgate.core.channel.ChannelFactory;
import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.core.config.ChannelSettings;
import java.util.List;

/** Found by {@link java.util.ServiceLoader}: builds the webhook channel from {@code [channels.webhook]}. */
public final class WebhookChannelFactory implements ChannelFactory {
    @Override
    public String name() {
        return WebhookChannel.NAME;
    }

    /** The keys of {@code [channels.webhook]} (its module's README describes the wire format). */
    @Override
    public List<ChannelOption> options() {
        return List.of(
                ChannelOption.string("path", "The path the platform posts signed JSON to, on the gateway's HTTP port.")
                        .withDefault(WebhookChannelSettings.DEFAULT_PATH),
                ChannelOption.string(
                                "secret",
                                "The shared HMAC secret both directions sign with (at least "
                                        + WebhookChannelSettings.MIN_SECRET_LENGTH + " characters).")
                        .asSecret(),
                ChannelOption.string("callback_url", "Where replies are posted."),
                ChannelOption.bool(
                                "reconcile", "The platform answers lookups of replies by idempotency key (SPEC OUT-7).")
                        .withDefault(false),
                ChannelOption.integer("text_limit", "The longest reply message, in UTF-16 units.")
                        .withDefault(WebhookChannelSettings.DEFAULT_TEXT_LIMIT));
    }

    @Override
    public Channel create(ChannelSettings settings) {
        return new WebhookChannel(WebhookChannelSettings.from(settings));
    }
}
