/**
 * The MCP client (SPEC AG-7): the tools of configured MCP servers, over stdio or streamable HTTP, offered to the agent
 * as {@code <server>__<tool>}. Entry point: {@link dev.clawgate.mcp.McpServers}. Built on the official MCP Java SDK;
 * core never sees the SDK.
 */
package dev.clawgate.mcp;
