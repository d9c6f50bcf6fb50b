package dev.clawgate.core.internal.turn;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.memory.AutoSave;
import dev.clawgate.core.internal.memory.MemoryContext;
import dev.clawgate.core.internal.memory.MemoryScopes;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.prompt.MemoryLine;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.StoreException;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A turn's use of long-term memory: recall for the system prompt (SPEC ME-2, ME-3, ME-4), then auto-save of the user's
 * words (ME-1, ME-7). Memory helps a turn but never fails it: a store error is logged and the turn goes on without.
 */
final class TurnMemory {
    private static final Logger log = LoggerFactory.getLogger(TurnMemory.class);

    private final TurnServices s;

    TurnMemory(TurnServices s) {
        this.s = s;
    }

    /**
     * Recalls what the batch's text is about, then saves the batch. Recall comes first so a message is never recalled
     * into its own turn.
     */
    List<MemoryLine> recallThenSave(List<InboxRecord> batch, MemorySettings settings) {
        // a gateway wired without memory (Memory.NONE) refuses writes: nothing to do, not a failure
        if (!settings.enabled() || s.memory() == Memory.NONE) return List.of();
        InboxRecord current = batch.getLast();
        MemoryScopes scopes = MemoryScopes.of(current.message(), current.session());
        List<MemoryLine> lines = recall(batch, scopes, settings);
        for (InboxRecord r : batch) {
            try {
                AutoSave.save(s.memory(), r.message(), scopes, settings);
            } catch (StoreException e) {
                log.warn("turn {}: auto-saving message {} to memory failed: {}", current.id(), r.id(), e.getMessage());
            }
        }
        return lines;
    }

    private List<MemoryLine> recall(List<InboxRecord> batch, MemoryScopes scopes, MemorySettings settings) {
        String query = batch.stream().map(r -> r.message().text()).collect(Collectors.joining("\n"));
        try {
            long started = dev.clawgate.core.inspect.TurnTrail.current().now();
            List<Recalled> recalled = MemoryContext.recall(s.memory(), scopes, query, settings);
            List<MemoryLine> lines = MemoryContext.filter(recalled, settings);
            InspectedTurns.memory(started, recalled, lines, settings.minRelevance());
            if (!recalled.isEmpty()) {
                log.debug(
                        "turn {}: recalled {} memories, injected {}: {}",
                        batch.getLast().id(),
                        recalled.size(),
                        lines.size(),
                        recalled.stream()
                                .map(r -> r.entry().key() + "=" + String.format(Locale.ROOT, "%.2f", r.score()))
                                .toList());
            }
            return lines;
        } catch (StoreException e) {
            log.warn(
                    "turn {}: memory recall failed; answering without it: {}",
                    batch.getLast().id(),
                    e.getMessage());
            return List.of();
        }
    }
}
