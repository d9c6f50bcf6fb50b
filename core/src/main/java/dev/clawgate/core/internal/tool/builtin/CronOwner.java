package dev.clawgate.core.internal.tool.builtin;

import dev.clawgate.core.tool.ToolContext;

/**
 * Who owns the cron jobs a tool call sees: this session's asking sender (SPEC AG-5: jobs are scoped to their creator).
 */
final class CronOwner {
    private CronOwner() {}

    /** The sender of the turn's message, else the session's; null when neither is known. */
    static String sender(ToolContext context) {
        if (context.origin() != null) return context.origin().sender();
        return context.session() == null ? null : context.session().sender();
    }
}
