package dev.clawgate.core.internal.prompt;

/** How much of each skill the Skills section shows (SPEC SP-1). */
public enum SkillsMode {
    /** Each skill with its whole description. */
    FULL,
    /** Each skill with the first line of its description, cut short: for many skills or small models. */
    COMPACT
}
