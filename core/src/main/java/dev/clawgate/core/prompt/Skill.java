package dev.clawgate.core.prompt;

import java.util.Objects;

/** A skill the agent can use, as the Skills section lists it (SPEC SP-1). */
public record Skill(String name, String description) {
    public Skill {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description.strip();
    }
}
