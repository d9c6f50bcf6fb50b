package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;

/** {@code memory_forget} (SPEC AG-5): removes a memory by its key. */
final class MemoryForgetTool extends BuiltinTool {
    public static final String NAME = "memory_forget";

    public MemoryForgetTool() {
        super(
                NAME,
                "Forget a stored memory by its key.",
                ArgumentSchema.object()
                        .string("key", "The key of the memory to forget, as memory_recall shows it", true)
                        .string(MemoryScopeArgument.NAME, MemoryScopeArgument.DESCRIPTION, false));
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        try {
            ToolArguments args = ToolArguments.of(arguments);
            String key = args.requiredString("key").strip();
            if (key.isEmpty()) return ToolResult.error("key is empty");
            MemoryScope scope = MemoryScopeArgument.read(args, context.memoryScopes());
            return context.memory().forget(scope, key)
                    ? ToolResult.ok("Forgot memory '" + key + "' (" + MemoryScopeArgument.label(scope) + ").")
                    : ToolResult.error("no memory '" + key + "' in scope " + MemoryScopeArgument.label(scope));
        } catch (RefusedException | IllegalArgumentException e) {
            return ToolResult.error(e.getMessage());
        }
    }
}
