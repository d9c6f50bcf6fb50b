package dev.clawgate.core.prompt;

import java.util.List;

/**
 * The part of a system prompt that stays the same for the life of a session (SPEC SP-2): every section but the
 * date/time, which goes between the two lists, and the memory context, which goes last.
 */
record StablePrompt(List<PromptSection> beforeDate, List<PromptSection> afterDate) {
    StablePrompt {
        beforeDate = List.copyOf(beforeDate);
        afterDate = List.copyOf(afterDate);
    }
}
