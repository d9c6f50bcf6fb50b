package dev.clawgate.server.config;

import dev.clawgate.core.config.InspectorSettings;
import java.time.Duration;

/** Reads {@code [inspector]} (SPEC OP-8 turn inspector). */
final class InspectorSection {
    private InspectorSection() {}

    static InspectorSettings read(TableReader t) {
        InspectorSettings d = InspectorSettings.defaults();
        return new InspectorSettings(
                t.bool("enabled", d.enabled()),
                t.duration("retention", d.retention(), Duration.ofMinutes(1)),
                t.bool("keep_prompts", d.keepPrompts()));
    }
}
