package dev.clawgate.core.config;

import java.time.Duration;
import java.util.Map;

/**
 * {@code [messages.inbound]}, {@code [messages.dedupe]}, {@code [messages.group]} and
 * {@code inbox.max_age} (SPEC IN-1, IN-2, IN-4, IN-6).
 *
 * @param debounceMs          0 disables debouncing (the default)
 * @param debounceByChannel   {@code messages.inbound.by_channel.<ch>}
 * @param groupHistoryLimit   pending group messages kept for context (50; 0 disables)
 * @param groupHistoryByChannel per-channel override of the limit
 */
public record InboundSettings(long debounceMs, Map<String, Long> debounceByChannel, Duration dedupeTtl,
                              int groupHistoryLimit, Map<String, Integer> groupHistoryByChannel, Duration inboxMaxAge) {
    public InboundSettings {
        debounceByChannel = debounceByChannel == null ? Map.of() : Map.copyOf(debounceByChannel);
        groupHistoryByChannel = groupHistoryByChannel == null ? Map.of() : Map.copyOf(groupHistoryByChannel);
    }

    public static InboundSettings defaults() {
        return new InboundSettings(0, Map.of(), Duration.ofMinutes(20), 50, Map.of(), Duration.ofHours(1));
    }

    public long debounceMsFor(String channel) {
        return debounceByChannel.getOrDefault(channel, debounceMs);
    }

    public int groupHistoryLimitFor(String channel) {
        return groupHistoryByChannel.getOrDefault(channel, groupHistoryLimit);
    }
}
