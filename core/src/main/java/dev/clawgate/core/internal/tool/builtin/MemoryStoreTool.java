package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.memory.MemoryContext;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;

/** {@code memory_store} (SPEC AG-5): keeps a fact under a key for later conversations. */
final class MemoryStoreTool extends BuiltinTool {
    public static final String NAME = "memory_store";
    static final int MAX_KEY_CHARS = 200;

    private final MemorySettings settings;

    public MemoryStoreTool(MemorySettings settings) {
        super(
                NAME,
                "Remember a fact, preference or decision for later conversations.",
                ArgumentSchema.object()
                        .string(
                                "key",
                                "A short name for the memory, e.g. 'user_favourite_colour'; "
                                        + "storing under a used key replaces it",
                                true)
                        .string("content", "What to remember", true)
                        .string("category", "A lower-case word that groups memories (default 'core')", false)
                        .string(MemoryScopeArgument.NAME, MemoryScopeArgument.DESCRIPTION, false));
        this.settings = settings;
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        try {
            ToolArguments args = ToolArguments.of(arguments);
            String key = args.requiredString("key").strip();
            String content = args.requiredString("content").strip();
            String category = args.optionalString("category", MemoryEntry.CORE).strip();
            MemoryScope scope = MemoryScopeArgument.read(args, context.memoryScopes());
            if (key.isEmpty()) return ToolResult.error("key is empty");
            if (key.length() > MAX_KEY_CHARS)
                return ToolResult.error("key is longer than " + MAX_KEY_CHARS + " characters");
            if (content.isEmpty()) return ToolResult.error("content is empty; nothing to remember");
            if (content.codePointCount(0, content.length()) > settings.maxEntryChars()) {
                return ToolResult.error(
                        "content is longer than " + settings.maxEntryChars() + " characters; store a summary");
            }
            // SPEC ME-7: recalled memories are not stored again
            if (content.contains(MemoryContext.HEADER))
                return ToolResult.error("content holds a recalled memory context; store the fact itself");
            if (!MemoryEntry.isCategory(category)) {
                return ToolResult.error(
                        "category must be a lower-case word (letters, digits, _ and -), was '" + category + "'");
            }
            MemoryEntry saved = context.memory().store(scope, key, content, category);
            context.memory().trim(scope, settings.maxEntriesPerScope());
            return ToolResult.ok(
                    saved.key().equals(key)
                            ? "Stored memory '" + key + "' (" + MemoryScopeArgument.label(scope) + ")."
                            : "The same content is already stored as '" + saved.key() + "' ("
                                    + MemoryScopeArgument.label(scope) + ").");
        } catch (RefusedException | IllegalArgumentException e) {
            return ToolResult.error(e.getMessage());
        }
    }
}
