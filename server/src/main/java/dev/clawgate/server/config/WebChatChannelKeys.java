package dev.clawgate.server.config;

import java.util.Map;

/** {@code [channels.webchat]}: {@code enabled} (default true) serves the web chat on the gateway's HTTP port (SPEC CH-2). */
public final class WebChatChannelKeys implements ChannelConfigKeys {
    @Override
    public String channel() {
        return "webchat";
    }

    @Override
    public Map<String, String> keys() {
        return Map.of("enabled", "boolean");
    }
}
