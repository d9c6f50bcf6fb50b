package dev.clawgate.core.internal.turn;

import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /queue MODE [debounce:0.5s] [cap:N] [drop:old|new|summarize]} and {@code /queue reset} (SPEC DI-3): what they
 * set for the session, as session settings.
 */
public final class QueueDirective {
    public static final String MODE = "queue";
    public static final String DEBOUNCE_MS = "queue.debounce_ms";
    public static final String CAP = "queue.cap";
    public static final String DROP = "queue.drop";
    public static final String USAGE =
            "Usage: /queue steer|followup|collect|interrupt [debounce:0.5s] [cap:N] [drop:old|new|summarize], or "
                    + "/queue reset.";

    private QueueDirective() {}

    /**
     * The settings to write (a null value clears one) and the reply; or the usage as reply and no settings when the
     * arguments are wrong.
     */
    public record Result(Map<String, String> settings, String reply) {}

    public static Result parse(String args) {
        String a = args == null ? "" : args.trim();
        if (a.isEmpty()) return new Result(Map.of(), USAGE);
        Map<String, String> out = new LinkedHashMap<>();
        if (a.equalsIgnoreCase("reset")) {
            for (String k : new String[] {MODE, DEBOUNCE_MS, CAP, DROP}) out.put(k, null);
            return new Result(out, "Queue settings reset to the configured defaults.");
        }
        String[] words = a.split("\\s+");
        Optional<QueueMode> mode = QueueMode.parse(words[0]);
        if (mode.isEmpty()) return new Result(Map.of(), "Unknown queue mode '" + words[0] + "'. " + USAGE);
        String modeName = mode.get().name().toLowerCase(Locale.ROOT);
        out.put(MODE, modeName);
        StringBuilder reply = new StringBuilder("Queue mode for this conversation: ").append(modeName);
        for (int i = 1; i < words.length; i++) {
            String w = words[i].toLowerCase(Locale.ROOT);
            int colon = w.indexOf(':');
            if (colon <= 0) return new Result(Map.of(), "Cannot read '" + words[i] + "'. " + USAGE);
            String key = w.substring(0, colon);
            String value = w.substring(colon + 1);
            switch (key) {
                case "debounce" -> {
                    Optional<Long> ms = millis(value);
                    if (ms.isEmpty())
                        return new Result(
                                Map.of(),
                                "Cannot read debounce '" + value + "' (e.g. debounce:0.5s or debounce:500ms).");
                    out.put(DEBOUNCE_MS, Long.toString(ms.get()));
                    reply.append(", debounce ").append(ms.get()).append(" ms");
                }
                case "cap" -> {
                    try {
                        int cap = Integer.parseInt(value);
                        if (cap < 1) throw new NumberFormatException();
                        out.put(CAP, Integer.toString(cap));
                        reply.append(", cap ").append(cap);
                    } catch (NumberFormatException e) {
                        return new Result(Map.of(), "cap must be a whole number of at least 1, not '" + value + "'.");
                    }
                }
                case "drop" -> {
                    Optional<DropPolicy> drop = DropPolicy.parse(value);
                    if (drop.isEmpty())
                        return new Result(Map.of(), "drop must be old, new or summarize, not '" + value + "'.");
                    out.put(DROP, drop.get().name().toLowerCase(Locale.ROOT));
                    reply.append(", drop ").append(drop.get().name().toLowerCase(Locale.ROOT));
                }
                default -> {
                    return new Result(Map.of(), "Unknown option '" + key + "'. " + USAGE);
                }
            }
        }
        if (QueueMode.isRetiredName(words[0]))
            reply.append(" ('").append(words[0]).append("' is a retired name for steer)");
        return new Result(out, reply.append('.').toString());
    }

    /** "0.5s", "500ms", "2s", "500" (ms). */
    static Optional<Long> millis(String v) {
        try {
            if (v.endsWith("ms")) return nonNegative(Math.round(Double.parseDouble(v.substring(0, v.length() - 2))));
            if (v.endsWith("s"))
                return nonNegative(Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
            return nonNegative(Long.parseLong(v));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<Long> nonNegative(long v) {
        return v < 0 ? Optional.empty() : Optional.of(v);
    }
}
