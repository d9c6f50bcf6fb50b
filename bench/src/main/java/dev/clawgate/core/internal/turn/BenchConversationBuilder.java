package dev.clawgate.core.internal.turn;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.internal.agent.ModelRoute;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.tool.ToolRegistry;
import java.util.List;

/**
 * Bench only (this class lives in the bench module, in core's package): the turn's own {@link ConversationBuilder} (the
 * system prompt, the stored transcript normalised and trimmed, SPEC SP-1, SP-2, HI-3, HI-4, ME-4) for the prompt-build
 * benchmark, which cannot reach the package-private class otherwise. Compiled against it, so a change of its signature
 * breaks the bench build instead of leaving the benchmark measuring a copy.
 */
public final class BenchConversationBuilder {
    private final ConversationBuilder builder;

    public BenchConversationBuilder(TurnServices services) {
        this.builder = new ConversationBuilder(services);
    }

    /** What a turn sends its first model call: the system prompt, then the history ending in {@code current}. */
    public List<ChatMessage> build(
            InboxRecord current, ClawgateConfig config, ModelRoute route, ToolRegistry tools, List<MemoryLine> memory) {
        return builder.build(current, config, route, tools, memory);
    }
}
