package dev.clawgate.core.internal.history;

import dev.clawgate.core.model.ChatMessage;
import java.util.List;

/**
 * A session history after overflow compaction (SPEC HI-5).
 *
 * @param compacted true only when the history really got smaller, so the user is told and the turn retried only then
 */
public record Compaction(List<ChatMessage> history, boolean compacted) {
    public Compaction {
        history = List.copyOf(history);
    }
}
