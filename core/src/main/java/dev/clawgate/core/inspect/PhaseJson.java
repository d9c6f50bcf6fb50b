package dev.clawgate.core.inspect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A turn's phases as one compact JSON array, the form a store keeps them in (SPEC OP-8): each phase is {@code [name,
 * startMicros, durationMicros, detail]}. Writing is plain string building, so recording stays cheap.
 */
public final class PhaseJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private PhaseJson() {}

    public static String write(List<TurnPhase> phases) {
        StringBuilder sb = new StringBuilder(64 * phases.size() + 2).append('[');
        for (TurnPhase p : phases) {
            if (sb.length() > 1) sb.append(',');
            sb.append('[');
            quote(sb, p.name());
            sb.append(',').append(micros(p.start()));
            sb.append(',').append(micros(p.duration()));
            sb.append(',').append(p.detail()).append(']');
        }
        return sb.append(']').toString();
    }

    /** @throws IllegalArgumentException when {@code json} is not what {@link #write} wrote */
    public static List<TurnPhase> read(String json) {
        try {
            JsonNode array = MAPPER.readTree(json);
            List<TurnPhase> phases = new ArrayList<>(array.size());
            for (JsonNode p : array) {
                phases.add(new TurnPhase(
                        p.get(0).asText(),
                        Duration.ofNanos(p.get(1).asLong() * 1000),
                        Duration.ofNanos(p.get(2).asLong() * 1000),
                        p.get(3).toString()));
            }
            return phases;
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("not a recorded list of turn phases", e);
        }
    }

    /** Appends {@code s} as a JSON string literal. */
    public static StringBuilder quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"');
    }

    private static long micros(Duration d) {
        return d.toNanos() / 1000;
    }
}
