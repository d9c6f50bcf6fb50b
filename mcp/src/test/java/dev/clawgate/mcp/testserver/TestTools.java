package dev.clawgate.mcp.testserver;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The tools the MCP test servers offer (SPEC AG-7), the same over stdio and streamable HTTP: {@code echo}, {@code env}
 * (the names of the variables the process got), {@code leak} (a result quoting the server's token), {@code big} (a long
 * result), {@code slow} (sleeps), {@code hidden}, and {@code grow}, which adds the tool {@code extra} and tells the
 * client its tool list changed.
 */
public final class TestTools {
    private TestTools() {}

    private static Map<String, Object> schema(String... stringProperties) {
        Map<String, Object> props = new java.util.LinkedHashMap<>();
        for (String p : stringProperties) props.put(p, Map.of("type", "string"));
        return Map.of("type", "object", "properties", props);
    }

    private static McpSchema.CallToolResult text(String text) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(text)
                .isError(false)
                .build();
    }

    private static SyncToolSpecification tool(
            String name,
            String description,
            Map<String, Object> schema,
            Function<Map<String, Object>, McpSchema.CallToolResult> body) {
        McpSchema.Tool tool = McpSchema.Tool.builder()
                .name(name)
                .description(description)
                .inputSchema(schema)
                .build();
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler(
                        (exchange, request) -> body.apply(request.arguments() == null ? Map.of() : request.arguments()))
                .build();
    }

    /** The tools; {@code server} is set once the server is built, for {@code grow}. */
    public static List<SyncToolSpecification> all(String label, AtomicReference<McpSyncServer> server) {
        return List.of(
                tool("echo", "Echoes text back", schema("text"), a -> text(label + " echo: " + a.get("text"))),
                tool(
                        "env",
                        "Names the environment variables this server got",
                        schema(),
                        a -> text(String.join(",", new TreeSet<>(System.getenv().keySet())))),
                tool(
                        "leak",
                        "Answers with its own token",
                        schema(),
                        a -> text("my token is " + System.getenv("MCP_TOKEN") + " and Bearer abcdefghijklmnop")),
                tool(
                        "big",
                        "Answers with n characters",
                        Map.of("type", "object", "properties", Map.of("n", Map.of("type", "integer"))),
                        a -> text("y".repeat(((Number) a.get("n")).intValue()))),
                tool(
                        "slow",
                        "Sleeps for the given seconds",
                        Map.of("type", "object", "properties", Map.of("seconds", Map.of("type", "integer"))),
                        a -> {
                            try {
                                Thread.sleep(((Number) a.get("seconds")).longValue() * 1000);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return text("slept");
                        }),
                tool("hidden", "Not on the allowlist", schema(), a -> text("must never be called")),
                tool("grow", "Adds the tool extra", schema(), a -> {
                    server.get().addTool(tool("extra", "Added at run time", schema(), b -> text(label + " extra ran")));
                    server.get().notifyToolsListChanged();
                    return text("grown");
                }));
    }
}
