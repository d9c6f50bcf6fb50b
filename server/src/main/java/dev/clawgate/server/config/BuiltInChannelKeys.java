package dev.clawgate.server.config;

import dev.clawgate.core.channel.ChannelOption;
import dev.clawgate.server.channel.WebChatChannel;
import java.util.List;
import java.util.Map;

/**
 * The keys of the channels the server itself runs (they need its HTTP server or console, so they are no modules):
 * {@code [channels.webchat]}'s {@code enabled} (default true) serves the web chat (SPEC CH-2); {@code text_limit}
 * (default 20000, SPEC OUT-1) and {@code preview_interval_ms} (default 250, OUT-9) shape its replies. The terminal and
 * API channels have no keys of their own.
 */
final class BuiltInChannelKeys {
    private BuiltInChannelKeys() {}

    static Map<String, List<ChannelOption>> options() {
        return Map.of(
                WebChatChannel.NAME,
                List.of(
                        ChannelOption.bool("enabled", "Serve the web chat on the gateway's HTTP port.")
                                .withDefault(true),
                        ChannelOption.integer("text_limit", "The longest reply message, in UTF-16 units.")
                                .withDefault(WebChatChannel.TEXT_LIMIT),
                        ChannelOption.integer(
                                        "preview_interval_ms",
                                        "The least time between two updates of a streamed reply.")
                                .withDefault(WebChatChannel.DEFAULT_PREVIEW_INTERVAL.toMillis())));
    }
}
