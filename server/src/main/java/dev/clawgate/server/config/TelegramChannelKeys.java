package dev.clawgate.server.config;

import dev.clawgate.channel.telegram.TelegramChannelFactory;
import dev.clawgate.core.config.ChannelSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code [channels.telegram]} and its accounts: the Telegram channel's own keys (its module depends on core only). */
public final class TelegramChannelKeys implements ChannelConfigKeys {
    @Override
    public String channel() {
        return "telegram";
    }

    @Override
    public Map<String, String> keys() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("bot_token", "string");
        keys.put("api_base", "string");
        keys.put("mode", "string");
        keys.put("webhook_url", "string");
        keys.put("webhook_secret", "string");
        keys.put("webhook_path", "string");
        keys.put("text_limit", "integer");
        keys.put("stream_mode", "string");
        keys.put("preview_interval_ms", "integer");
        keys.put("ack_reactions", "boolean");
        keys.put("ack_policy", "string");
        keys.put("media_max_age_hours", "integer");
        keys.put("media_max_total_mb", "integer");
        return keys;
    }

    /** SPEC CH-3: a bad mode, webhook secret, text limit, stream mode or ack policy fails the load, naming its key. */
    @Override
    public void check(ChannelSettings settings) {
        TelegramChannelFactory.check(settings);
    }
}
