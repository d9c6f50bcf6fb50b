package dev.clawgate.server.config;

import dev.clawgate.core.config.InboundSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads {@code [messages.inbound]}, {@code [messages.dedupe]}, {@code [messages.group]},
 * {@code channels.<name>.history_limit}, {@code [inbox]} and {@code messages.max_chars} (SPEC IN-1, IN-2, IN-4, IN-6,
 * OP-10).
 */
final class InboundSection {
    private InboundSection() {}

    static InboundSettings read(TableReader root) {
        InboundSettings d = InboundSettings.defaults();
        TableReader messages = root.table("messages");
        TableReader inbound = messages.table("inbound");
        TableReader byChannel = inbound.table("by_channel");
        Map<String, Long> debounceByChannel = new LinkedHashMap<>();
        for (String channel : byChannel.keys()) {
            ChannelSection.checkName(byChannel, channel);
            debounceByChannel.put(channel, byChannel.longInteger(channel, 0, 0, Integer.MAX_VALUE));
        }
        Map<String, Integer> historyByChannel = new LinkedHashMap<>();
        for (var channel : root.namedTables("channels").entrySet()) {
            TableReader t = channel.getValue();
            if (t.has("history_limit"))
                historyByChannel.put(channel.getKey(), t.integer("history_limit", 0, 0, Integer.MAX_VALUE));
        }
        return new InboundSettings(
                inbound.longInteger("debounce_ms", d.debounceMs(), 0, Integer.MAX_VALUE),
                debounceByChannel,
                Duration.ofSeconds(messages.table("dedupe")
                        .longInteger("ttl_secs", d.dedupeTtl().toSeconds(), 1, Integer.MAX_VALUE)),
                messages.table("group").integer("history_limit", d.groupHistoryLimit(), 0, Integer.MAX_VALUE),
                historyByChannel,
                root.table("inbox").duration("max_age", d.inboxMaxAge(), Duration.ofSeconds(1)),
                messages.integer("max_chars", d.maxChars(), 1, Integer.MAX_VALUE));
    }
}
