package dev.clawgate.mcp.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * An MCP tool result as the text a built-in tool would give (SPEC AG-7, AG-3): text parts as they are, images as
 * {@code data:} URIs (which the agent loop keeps as files and {@code [IMAGE:path]} markers), resources by their text or
 * URI; without parts, the structured content as JSON. Secrets are taken out; the agent loop cuts the text to
 * {@code tools.max_result_chars} as it cuts every tool's.
 */
final class ResultText {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultText() {}

    static ToolResult of(McpSchema.CallToolResult result, SecretScrub scrub) {
        List<String> parts = new ArrayList<>();
        if (result.content() != null) {
            for (McpSchema.Content c : result.content()) parts.add(part(c));
        }
        if (parts.isEmpty() && result.structuredContent() != null) parts.add(json(result.structuredContent()));
        String text = scrub.apply(String.join("\n", parts));
        return Boolean.TRUE.equals(result.isError())
                ? ToolResult.error(text.isEmpty() ? "the tool failed" : text)
                : ToolResult.ok(text);
    }

    private static String part(McpSchema.Content c) {
        return switch (c) {
            case McpSchema.TextContent t -> t.text() == null ? "" : t.text();
            case McpSchema.ImageContent i -> "data:" + i.mimeType() + ";base64," + i.data();
            case McpSchema.AudioContent a -> "[audio " + a.mimeType() + " not kept]";
            case McpSchema.ResourceLink l -> "[resource: " + l.uri() + "]";
            case McpSchema.EmbeddedResource r ->
                switch (r.resource()) {
                    case McpSchema.TextResourceContents t -> t.text();
                    case McpSchema.BlobResourceContents b ->
                        "[resource " + b.uri() + " (" + b.mimeType() + ") not kept]";
                    default -> "[resource " + r.resource().uri() + "]";
                };
            default -> "[" + c.type() + " content not kept]";
        };
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return String.valueOf(value);
        }
    }
}
