package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.cron.CronBook;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;

/** {@code cron_remove} (SPEC AG-5): removes one of this sender's scheduled tasks in this conversation. */
final class CronRemoveTool extends BuiltinTool {
    public static final String NAME = "cron_remove";

    private final CronBook book;

    public CronRemoveTool(CronBook book) {
        super(
                NAME,
                "Remove a scheduled task of this conversation by its id (see cron_list).",
                ArgumentSchema.object()
                        .integer("id", "The task's id, as cron_list shows it", 1, Integer.MAX_VALUE, true));
        this.book = book;
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        try {
            String sender = CronOwner.sender(context);
            if (sender == null) return ToolResult.error("cron_remove needs a conversation; there is none in this run");
            int id = ToolArguments.of(arguments).optionalInt("id", 0, 1, Integer.MAX_VALUE);
            if (id == 0) return ToolResult.error("missing required argument 'id'");
            if (!book.remove(id, context.session(), sender)) {
                return ToolResult.error(
                        "there is no scheduled task " + id + " in this conversation; cron_list shows the ids");
            }
            return ToolResult.ok("Removed scheduled task " + id + ".");
        } catch (RefusedException e) {
            return ToolResult.error(e.getMessage());
        }
    }
}
