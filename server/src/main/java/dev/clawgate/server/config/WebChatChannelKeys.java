package dev.clawgate.server.config;

import java.util.Map;

/**
 * {@code [channels.webchat]}: {@code enabled} (default true) serves the web chat on the gateway's HTTP
 * port (SPEC CH-2); {@code text_limit} (default 20000, SPEC OUT-1) and {@code preview_interval_ms}
 * (default 250, OUT-9) shape its replies.
 */
public final class WebChatChannelKeys implements ChannelConfigKeys {
    @Override
    public String channel() {
        return "webchat";
    }

    @Override
    public Map<String, String> keys() {
        return Map.of("enabled", "boolean", "text_limit", "integer", "preview_interval_ms", "integer");
    }
}
