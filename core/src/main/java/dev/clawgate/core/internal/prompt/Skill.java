package dev.clawgate.core.internal.prompt;

import java.util.Objects;

/**
 * A skill the agent can use, as the Skills section lists it (SPEC SP-1).
 *
 * @param location where the agent can read it in full, relative to the workspace; null when it has no file
 */
public record Skill(String name, String description, String location) {
    public Skill {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description.strip();
    }

    public Skill(String name, String description) {
        this(name, description, null);
    }
}
