package dev.clawgate.mcp;

import java.util.List;

/**
 * One MCP server as {@code doctor} and readiness show it (SPEC AG-7, OP-4).
 *
 * @param where its program or URL ({@code stdio: npx}, {@code http: https://host/mcp}), never a credential
 * @param tools the names its tools have for the model ({@code <server>__<tool>}); empty unless ready
 * @param problem why it is not ready, scrubbed of secrets; null when it is
 * @param restarts how often it has been started again since the gateway started
 */
public record McpServerStatus(
        String name, String where, McpServerState state, List<String> tools, String problem, int restarts) {
    public McpServerStatus {
        tools = List.copyOf(tools);
    }
}
