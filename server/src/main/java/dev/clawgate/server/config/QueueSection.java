package dev.clawgate.server.config;

import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.config.QueueSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads {@code [messages.queue]} and {@code [messages.queue.by_channel]} (SPEC DI-3). */
final class QueueSection {
    private static final Logger log = LoggerFactory.getLogger(QueueSection.class);
    private static final String MODES = "steer, followup, collect, interrupt";

    private QueueSection() {}

    static QueueSettings read(TableReader queue) {
        QueueSettings d = QueueSettings.defaults();
        QueueMode mode = mode(queue, "mode", d.mode());
        TableReader byChannel = queue.table("by_channel");
        Map<String, QueueMode> modes = new LinkedHashMap<>();
        for (String channel : byChannel.keys()) {
            ChannelSection.checkName(byChannel, channel);
            modes.put(channel, mode(byChannel, channel, mode));
        }
        return new QueueSettings(
                mode,
                modes,
                queue.longInteger("debounce_ms", d.debounceMs(), 0, Integer.MAX_VALUE),
                queue.integer("cap", d.cap(), 1, Integer.MAX_VALUE),
                queue.choice("drop", d.drop(), DropPolicy::parse, "a drop policy", "summarize, old, new"));
    }

    /** SPEC DI-3: retired names still work, with a warning. */
    private static QueueMode mode(TableReader t, String key, QueueMode defaultMode) {
        String raw = t.string(key);
        if (raw == null) return defaultMode;
        QueueMode mode = QueueMode.parse(raw)
                .orElseThrow(
                        () -> t.error(t.keyPath(key), t.shown(key, raw) + " not a queue mode; use one of " + MODES));
        if (QueueMode.isRetiredName(raw)) {
            log.warn(
                    "{} in {} uses the retired queue mode '{}'; it now means 'steer' (write {} = \"steer\")",
                    t.keyPath(key),
                    t.file(),
                    raw,
                    key);
        }
        return mode;
    }
}
