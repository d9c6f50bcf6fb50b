package dev.clawgate.core.config;

import java.util.Map;

/**
 * {@code [messages.queue]} (SPEC DI-3).
 *
 * @param byChannel {@code messages.queue.by_channel.<ch>}: a mode per channel
 * @param debounceMs the quiet window before a collected batch runs (500)
 */
public record QueueSettings(
        QueueMode mode, Map<String, QueueMode> byChannel, long debounceMs, int cap, DropPolicy drop) {
    public QueueSettings {
        byChannel = byChannel == null ? Map.of() : Map.copyOf(byChannel);
    }

    public static QueueSettings defaults() {
        return new QueueSettings(QueueMode.STEER, Map.of(), 500, 20, DropPolicy.SUMMARIZE);
    }

    /** The configured mode for a channel: its own, else the global one. */
    public QueueMode modeFor(String channel) {
        return byChannel.getOrDefault(channel, mode);
    }
}
