package dev.clawgate.mcp;

/** Where one MCP server is in its life (SPEC AG-7); only a {@link #READY} server's tools are offered. */
public enum McpServerState {
    /** Being started (or connected to) and asked for its tools. */
    STARTING,
    /** Answering; its tools are offered to the model. */
    READY,
    /** Stopped or failed; started again after a backoff, its tools hidden meanwhile. */
    RESTARTING,
    /** Closed with the gateway. */
    STOPPED
}
