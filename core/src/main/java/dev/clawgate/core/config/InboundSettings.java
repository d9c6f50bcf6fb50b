package dev.clawgate.core.config;

import java.time.Duration;
import java.util.Map;

/**
 * {@code [messages.inbound]}, {@code [messages.dedupe]}, {@code [messages.group]}, {@code inbox.max_age} and
 * {@code messages.max_chars} (SPEC IN-1, IN-2, IN-4, IN-6, OP-10).
 *
 * @param debounceMs 0 disables debouncing (the default)
 * @param debounceByChannel {@code messages.inbound.by_channel.<ch>}
 * @param groupHistoryLimit pending group messages kept for context (50; 0 disables)
 * @param groupHistoryByChannel per-channel override of the limit
 * @param maxChars {@code messages.max_chars}: a longer message is refused on every channel (OP-10)
 */
public record InboundSettings(
        long debounceMs,
        Map<String, Long> debounceByChannel,
        Duration dedupeTtl,
        int groupHistoryLimit,
        Map<String, Integer> groupHistoryByChannel,
        Duration inboxMaxAge,
        int maxChars) {
    /** SPEC OP-10: the default of {@code messages.max_chars}. */
    public static final int DEFAULT_MAX_CHARS = 100_000;

    public InboundSettings {
        debounceByChannel = debounceByChannel == null ? Map.of() : Map.copyOf(debounceByChannel);
        groupHistoryByChannel = groupHistoryByChannel == null ? Map.of() : Map.copyOf(groupHistoryByChannel);
        if (maxChars < 1) throw new IllegalArgumentException("maxChars must be at least 1, got " + maxChars);
    }

    /** With the default {@code messages.max_chars}. */
    public InboundSettings(
            long debounceMs,
            Map<String, Long> debounceByChannel,
            Duration dedupeTtl,
            int groupHistoryLimit,
            Map<String, Integer> groupHistoryByChannel,
            Duration inboxMaxAge) {
        this(
                debounceMs,
                debounceByChannel,
                dedupeTtl,
                groupHistoryLimit,
                groupHistoryByChannel,
                inboxMaxAge,
                DEFAULT_MAX_CHARS);
    }

    public static InboundSettings defaults() {
        return new InboundSettings(0, Map.of(), Duration.ofMinutes(20), 50, Map.of(), Duration.ofHours(1));
    }

    /** The same settings with {@code messages.max_chars} replaced. */
    public InboundSettings withMaxChars(int newMaxChars) {
        return new InboundSettings(
                debounceMs,
                debounceByChannel,
                dedupeTtl,
                groupHistoryLimit,
                groupHistoryByChannel,
                inboxMaxAge,
                newMaxChars);
    }

    public long debounceMsFor(String channel) {
        return debounceByChannel.getOrDefault(channel, debounceMs);
    }

    public int groupHistoryLimitFor(String channel) {
        return groupHistoryByChannel.getOrDefault(channel, groupHistoryLimit);
    }
}
