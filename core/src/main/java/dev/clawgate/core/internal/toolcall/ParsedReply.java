package dev.clawgate.core.internal.toolcall;

import dev.clawgate.core.model.ToolCall;
import java.util.List;

/**
 * A model reply split into what the user may see and the tool calls it asked for (SPEC AG-1).
 *
 * @param visibleText the reply without tool-call markup and reasoning, trimmed
 * @param calls in the order they appeared; a malformed one carries {@link ToolCall#parseError()}
 */
public record ParsedReply(String visibleText, List<ToolCall> calls) {
    public ParsedReply {
        visibleText = visibleText == null ? "" : visibleText;
        calls = calls == null ? List.of() : List.copyOf(calls);
    }

    public boolean hasCalls() {
        return !calls.isEmpty();
    }
}
