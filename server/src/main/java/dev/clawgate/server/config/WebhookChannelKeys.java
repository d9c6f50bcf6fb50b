package dev.clawgate.server.config;

import java.util.Map;

/** {@code [channels.webhook]}: the generic webhook channel's own keys (its module depends on core only). */
public final class WebhookChannelKeys implements ChannelConfigKeys {
    @Override
    public String channel() {
        return "webhook";
    }

    @Override
    public Map<String, String> keys() {
        return Map.of("path", "string", "secret", "string", "callback_url", "string", "reconcile", "boolean", "text_limit", "integer");
    }
}
