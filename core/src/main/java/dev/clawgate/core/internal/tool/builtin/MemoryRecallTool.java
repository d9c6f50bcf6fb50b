package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** {@code memory_recall} (SPEC AG-5): searches the memories this conversation may see, best match first. */
final class MemoryRecallTool extends BuiltinTool {
    public static final String NAME = "memory_recall";
    static final int DEFAULT_LIMIT = 5;
    static final int MAX_LIMIT = 20;

    private final int maxResultChars;

    public MemoryRecallTool(int maxResultChars) {
        super(
                NAME,
                "Search long-term memory for facts stored earlier; each result has a relevance score from 0 to 1.",
                ArgumentSchema.object()
                        .string("query", "Words to look for", true)
                        .integer("limit", "How many memories at most (default " + DEFAULT_LIMIT + ")", 1, MAX_LIMIT)
                        .string(
                                MemoryScopeArgument.NAME,
                                "Search only this scope: 'sender', 'session' or 'global' (default: all "
                                        + "this conversation sees)",
                                false));
        this.maxResultChars = maxResultChars;
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        try {
            ToolArguments args = ToolArguments.of(arguments);
            String query = args.requiredString("query");
            int limit = args.optionalInt("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
            if (query.isBlank()) return ToolResult.error("query is empty");
            List<Recalled> found = new ArrayList<>();
            for (List<MemoryScope> set : MemoryScopeArgument.readForRecall(args, context.memoryScopes())) {
                found.addAll(context.memory().recall(query, set, limit));
            }
            found.sort(Comparator.comparingDouble(Recalled::score).reversed());
            if (found.isEmpty()) return ToolResult.ok("No memories match '" + query.strip() + "'.");
            StringBuilder sb = new StringBuilder();
            for (Recalled r : found.subList(0, Math.min(limit, found.size()))) {
                sb.append("- ")
                        .append(r.entry().key())
                        .append(" (")
                        .append(MemoryScopeArgument.label(r.entry().scope()))
                        .append(", ")
                        .append(r.entry().category())
                        .append(", score ")
                        .append(String.format(Locale.ROOT, "%.2f", r.score()))
                        .append("): ")
                        .append(r.entry().content().strip())
                        .append('\n');
            }
            return ToolResult.ok(ResultText.fit(sb.toString().stripTrailing(), maxResultChars));
        } catch (RefusedException | IllegalArgumentException e) {
            return ToolResult.error(e.getMessage());
        }
    }
}
