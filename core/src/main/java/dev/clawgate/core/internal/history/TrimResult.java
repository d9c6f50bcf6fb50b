package dev.clawgate.core.internal.history;

import dev.clawgate.core.model.ChatMessage;
import java.util.List;

/**
 * The history after a proactive trim (SPEC HI-4) and what the trim cost.
 *
 * @param keptTurns turns left, the current one included
 */
public record TrimResult(List<ChatMessage> history, int droppedMessages, int droppedTurns, int keptTurns) {
    public TrimResult {
        history = List.copyOf(history);
    }

    public boolean trimmed() {
        return droppedMessages > 0;
    }
}
