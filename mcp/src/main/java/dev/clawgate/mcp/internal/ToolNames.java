package dev.clawgate.mcp.internal;

/** The name a model sees for an MCP tool (SPEC AG-7): {@code <server>__<tool>}, in what model APIs accept. */
final class ToolNames {
    /** OpenAI and Anthropic accept at most 64 of {@code [A-Za-z0-9_-]}. */
    static final int MAX = 64;

    private ToolNames() {}

    static String exposed(String server, String tool) {
        String name = server + "__" + tool.replaceAll("[^A-Za-z0-9_-]", "_");
        return name.length() <= MAX ? name : name.substring(0, MAX);
    }
}
