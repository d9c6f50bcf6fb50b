package dev.clawgate.core.internal.agent;

import dev.clawgate.core.provider.Usage;
import java.util.List;

/**
 * What a run produced: the final text (not yet sanitised for the channel), the tools it used, in first-use order, the
 * tokens, and whether it stopped at the iteration limit.
 */
public record AgentResult(
        String text, List<String> usedTools, Usage usage, int modelCalls, boolean iterationLimitHit, String reasoning) {
    public AgentResult {
        usedTools = List.copyOf(usedTools);
    }
}
