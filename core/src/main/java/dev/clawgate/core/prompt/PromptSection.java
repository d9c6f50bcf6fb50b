package dev.clawgate.core.prompt;

import java.util.Objects;

/** One section of the system prompt, named as SPEC SP-1 names it; its size feeds the turn inspector (SPEC OP-8). */
public record PromptSection(String name, String text) {
    public static final String TOOLS = "Tools";
    public static final String HARDWARE = "Hardware";
    public static final String TASK = "Your Task";
    public static final String SAFETY = "Safety";
    public static final String SKILLS = "Skills";
    public static final String WORKSPACE = "Workspace";
    public static final String PROJECT_CONTEXT = "Project Context";
    public static final String DATE_TIME = "Current Date & Time";
    public static final String RUNTIME = "Runtime";
    public static final String CHANNEL_CAPABILITIES = "Channel Capabilities";
    public static final String CHANNEL_CONTEXT = "Channel Context";
    public static final String MEMORY = "Memory Context";

    public PromptSection {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(text, "text");
    }

    /** Size in characters. */
    public int chars() {
        return text.length();
    }
}
