package dev.clawgate.core.internal.memory;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.memory.Recalled;
import dev.clawgate.core.prompt.MemoryLine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The memories a turn's system prompt gets (SPEC ME-2, ME-3): recalled by the current text for the sender (and the
 * global scope), in a group also for the group's session, merged, deduplicated and filtered.
 */
public final class MemoryContext {
    /** The first line of the memory context in the system prompt (SPEC ME-4). */
    public static final String HEADER = "[Memory context]";

    private MemoryContext() {}

    /** SPEC ME-2: the sender's scope and the global one; in a group also the group session's, each up to the limit. */
    public static List<Recalled> recall(Memory memory, MemoryScopes scopes, String query, MemorySettings settings) {
        List<Recalled> all = new ArrayList<>();
        for (List<MemoryScope> set : scopes.recallSets()) all.addAll(memory.recall(query, set, settings.recallLimit()));
        all.sort(Comparator.comparingDouble(Recalled::score).reversed());
        Set<Long> ids = new HashSet<>();
        Set<String> contents = new HashSet<>();
        List<Recalled> merged = new ArrayList<>();
        for (Recalled r : all) {
            if (ids.add(r.entry().id()) && contents.add(r.entry().content().strip())) merged.add(r);
        }
        return merged;
    }

    /**
     * SPEC ME-3: drops entries below {@code min_relevance}, holding {@code [IMAGE:} or {@code <tool_result>}, keyed
     * {@code *_history}, or longer than {@code max_entry_chars}; cuts each to {@code context_entry_chars}; keeps at
     * most {@code context_max_entries} and {@code context_max_chars} in all, best first.
     */
    public static List<MemoryLine> filter(List<Recalled> recalled, MemorySettings settings) {
        List<MemoryLine> lines = new ArrayList<>();
        int total = 0;
        for (Recalled r : recalled) {
            if (lines.size() >= settings.contextMaxEntries()) break;
            MemoryEntry e = r.entry();
            String content = e.content().strip();
            if (r.score() < settings.minRelevance()
                    || content.contains("[IMAGE:")
                    || content.contains("<tool_result")
                    || e.key().endsWith("_history")
                    || content.codePointCount(0, content.length()) > settings.maxEntryChars()) {
                continue;
            }
            MemoryLine line = new MemoryLine(e.key(), cut(content, settings.contextEntryChars()));
            // as the prompt renders it: "- key: content"
            int size = 4 + line.key().length() + line.content().length();
            if (total + size > settings.contextMaxChars()) break;
            total += size;
            lines.add(line);
        }
        return lines;
    }

    /** At most {@code max} code points, the last an ellipsis when cut. */
    static String cut(String s, int max) {
        if (s.codePointCount(0, s.length()) <= max) return s;
        return s.substring(0, s.offsetByCodePoints(0, max - 1)) + "…";
    }
}
