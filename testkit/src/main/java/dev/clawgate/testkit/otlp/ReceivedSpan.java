package dev.clawgate.testkit.otlp;

import java.util.Map;

/**
 * One span as the collector decoded it from the OTLP protobuf.
 *
 * @param traceId 32 lower-case hex digits
 * @param spanId 16 lower-case hex digits
 * @param parentSpanId 16 hex digits, or "" for a root span
 * @param attributes each attribute's value as text
 * @param error whether the span's status is ERROR
 * @param service the resource's {@code service.name}
 */
public record ReceivedSpan(
        String traceId,
        String spanId,
        String parentSpanId,
        String name,
        Map<String, String> attributes,
        long startNanos,
        long endNanos,
        boolean error,
        String service) {
    public ReceivedSpan {
        attributes = Map.copyOf(attributes);
    }

    public String attribute(String key) {
        return attributes.get(key);
    }
}
