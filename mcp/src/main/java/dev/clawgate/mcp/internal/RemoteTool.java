package dev.clawgate.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.tool.Tool;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;

/** A tool of an MCP server, as the agent sees it (SPEC AG-7): {@code <server>__<tool>}, the server's schema. */
final class RemoteTool implements Tool {
    private final ServerConnection server;
    private final String name;
    private final String remoteName;
    private final String description;
    private final JsonNode schema;

    RemoteTool(ServerConnection server, String name, String remoteName, String description, JsonNode schema) {
        this.server = server;
        this.name = name;
        this.remoteName = remoteName;
        this.description = description;
        this.schema = schema;
    }

    @Override
    public String name() {
        return name;
    }

    String remoteName() {
        return remoteName;
    }

    @Override
    public String description() {
        return description;
    }

    /** A copy: a caller that edits it cannot change what the next caller sees. */
    @Override
    public JsonNode parameters() {
        return schema.deepCopy();
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        return server.call(this, arguments, context.cancel());
    }
}
