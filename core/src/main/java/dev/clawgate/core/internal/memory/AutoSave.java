package dev.clawgate.core.internal.memory;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.history.ConversationKeys;
import dev.clawgate.core.memory.Memory;
import dev.clawgate.core.memory.MemoryEntry;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.InboundMessage;
import java.util.Optional;

/**
 * SPEC ME-1, ME-7: what of a user's message is kept as a {@code conversation} memory. Only the user's own words are
 * ever offered (never assistant text, tool output or the prompt body with its envelope); of those, messages shorter
 * than {@code auto_save_min_chars}, longer than {@code max_entry_chars}, or carrying a recalled {@code [Memory
 * context]} or a {@code <tool_result>} are not kept, so memory cannot snowball into itself.
 */
public final class AutoSave {
    private AutoSave() {}

    /** Why {@code text} is not saved, or empty when it is. */
    public static Optional<String> refusal(String text, MemorySettings settings) {
        String t = text == null ? "" : text.strip();
        int chars = t.codePointCount(0, t.length());
        if (chars < settings.autoSaveMinChars())
            return Optional.of("shorter than " + settings.autoSaveMinChars() + " characters");
        if (chars > settings.maxEntryChars())
            return Optional.of("longer than " + settings.maxEntryChars() + " characters");
        if (t.contains(MemoryContext.HEADER)) return Optional.of("holds a recalled memory context");
        if (t.contains("<tool_result")) return Optional.of("holds tool output");
        return Optional.empty();
    }

    /**
     * Saves the message under its ME-1 key in the turn's home scope ({@link MemoryScopes#home}) and keeps that scope
     * within its cap; empty when the message is not worth saving.
     */
    public static Optional<MemoryEntry> save(
            Memory memory, InboundMessage m, MemoryScopes scopes, MemorySettings settings) {
        if (!settings.enabled()
                || !settings.autoSave()
                || refusal(m.text(), settings).isPresent()) return Optional.empty();
        MemoryScope scope = scopes.home();
        MemoryEntry saved =
                memory.store(scope, ConversationKeys.memoryKey(m), m.text().strip(), MemoryEntry.CONVERSATION);
        memory.trim(scope, settings.maxEntriesPerScope());
        return Optional.of(saved);
    }
}
