package dev.clawgate.core.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code [mcp]}: the MCP servers whose tools the agent may use (SPEC AG-7), by name. */
public record McpSettings(Map<String, McpServerSettings> servers) {
    public McpSettings {
        servers = servers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(servers));
    }

    public static McpSettings none() {
        return new McpSettings(Map.of());
    }
}
