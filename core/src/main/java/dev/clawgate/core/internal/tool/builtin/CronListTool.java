package dev.clawgate.core.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.cron.CronBook;
import dev.clawgate.core.cron.CronJob;
import dev.clawgate.core.tool.ToolContext;
import dev.clawgate.core.tool.ToolResult;
import java.util.List;

/** {@code cron_list} (SPEC AG-5): the scheduled tasks of this conversation's sender, and only theirs. */
final class CronListTool extends BuiltinTool {
    public static final String NAME = "cron_list";
    private static final int PROMPT_SHOWN = 200;

    private final CronBook book;

    public CronListTool(CronBook book) {
        super(
                NAME,
                "List the tasks scheduled in this conversation with cron_add: id, schedule, next run and prompt.",
                ArgumentSchema.object());
        this.book = book;
    }

    @Override
    public ToolResult execute(JsonNode arguments, ToolContext context) {
        String sender = CronOwner.sender(context);
        if (sender == null) return ToolResult.error("cron_list needs a conversation; there is none in this run");
        List<CronJob> jobs = book.list(context.session(), sender);
        if (jobs.isEmpty()) return ToolResult.ok("No scheduled tasks.");
        StringBuilder sb = new StringBuilder();
        for (CronJob j : jobs) {
            String prompt = j.prompt().length() <= PROMPT_SHOWN
                    ? j.prompt()
                    : j.prompt().substring(0, PROMPT_SHOWN) + "...";
            sb.append("- id ")
                    .append(j.id())
                    .append(": ")
                    .append(j.schedule().describe())
                    .append(", next run ")
                    .append(j.nextFireAt() == null ? "none" : j.nextFireAt().toString());
            if (j.name() != null) sb.append(", name \"").append(j.name()).append('"');
            sb.append(", prompt: ")
                    .append(prompt.replaceAll("\\s*\\R\\s*", " "))
                    .append('\n');
        }
        return ToolResult.ok(sb.toString().stripTrailing());
    }
}
