package dev.clawgate.core.prompt;

import dev.clawgate.core.provider.ToolSpec;
import java.util.List;

/**
 * The Tools section (SPEC SP-1): the tools with their descriptions, and for a provider without native tool calling the
 * {@code <tool_call>} protocol with every tool's JSON schema (SPEC SP-3).
 */
final class ToolsSection {
    static final String PROTOCOL_HEADING = "### Tool Use Protocol";

    private ToolsSection() {}

    static String render(List<ToolSpec> tools, boolean nativeTools) {
        StringBuilder sb = new StringBuilder("## Tools\n");
        if (tools.isEmpty())
            return sb.append("No tools are available in this conversation.").toString();
        sb.append("You can use these tools:\n");
        for (ToolSpec t : tools)
            sb.append("- ")
                    .append(t.name())
                    .append(": ")
                    .append(oneLine(t.description()))
                    .append('\n');
        if (nativeTools) return sb.toString().stripTrailing();
        sb.append('\n')
                .append(PROTOCOL_HEADING)
                .append('\n')
                .append("To use a tool, write a tool call in exactly this form:\n")
                .append("<tool_call>{\"name\": \"tool_name\", \"arguments\": {...}}</tool_call>\n")
                .append("The JSON inside must be valid: \"name\" is one of the tools below and \"arguments\" matches "
                        + "its schema."
                        + " You may write several tool calls in one reply. The results come back in a [Tool "
                        + "results] message;"
                        + " never write results yourself.\n\n")
                .append("Available tools and the JSON schema of their arguments:\n");
        for (ToolSpec t : tools) {
            sb.append("- ")
                    .append(t.name())
                    .append(": ")
                    .append(
                            t.parameters() == null
                                    ? "{\"type\":\"object\",\"properties\":{}}"
                                    : t.parameters().toString())
                    .append('\n');
        }
        return sb.toString().stripTrailing();
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
