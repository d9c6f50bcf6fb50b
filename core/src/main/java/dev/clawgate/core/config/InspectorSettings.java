package dev.clawgate.core.config;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code [inspector]}: the turn inspector (SPEC OP-8).
 *
 * @param enabled record every turn phase by phase ({@code inspector.enabled}, on by default)
 * @param retention how long recorded turns are kept ({@code inspector.retention}, 7 days)
 * @param keepPrompts also keep the full prompt text sent to the model ({@code inspector.keep_prompts}, off: prompts
 *     hold the conversation and are large)
 */
public record InspectorSettings(boolean enabled, Duration retention, boolean keepPrompts) {
    public InspectorSettings {
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("inspector.retention must be positive, got " + retention);
        }
    }

    public static InspectorSettings defaults() {
        return new InspectorSettings(true, Duration.ofDays(7), false);
    }
}
