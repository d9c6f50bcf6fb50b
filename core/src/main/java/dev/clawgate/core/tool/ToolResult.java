package dev.clawgate.core.tool;

/** What a tool run produced; an error result is shown to the model, which may try again. */
public record ToolResult(String output, boolean error) {
    public static ToolResult ok(String output) {
        return new ToolResult(output == null ? "" : output, false);
    }

    public static ToolResult error(String message) {
        return new ToolResult(message, true);
    }
}
