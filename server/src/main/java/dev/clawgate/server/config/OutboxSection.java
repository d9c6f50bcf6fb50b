package dev.clawgate.server.config;

import dev.clawgate.core.config.OutboxSettings;
import dev.clawgate.core.outbound.Durability;
import java.time.Duration;
import java.util.Optional;

/** Reads {@code [outbox]} (SPEC OUT-6, OUT-7). */
final class OutboxSection {
    private OutboxSection() {}

    static OutboxSettings read(TableReader t) {
        OutboxSettings d = OutboxSettings.defaults();
        Durability durability = t.choice(
                "durability",
                d.durability(),
                OutboxSection::durability,
                "an outbox durability",
                "best_effort, required (disabled is only for connection-bound channels)");
        return new OutboxSettings(
                durability,
                t.duration("max_age", d.maxAge(), Duration.ofSeconds(1)),
                t.bool("resend_unknown", d.resendUnknown()),
                t.integer("replay_per_second", d.replayPerSecond(), 1, 10_000),
                d.retries());
    }

    private static Optional<Durability> durability(String raw) {
        return raw.equals("best_effort") || raw.equals("required")
                ? Optional.of(Durability.fromWire(raw))
                : Optional.empty();
    }
}
