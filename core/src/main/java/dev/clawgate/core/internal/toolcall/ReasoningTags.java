package dev.clawgate.core.internal.toolcall;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The tag names models write their reasoning in ({@code agent.reasoning_tags}, SPEC RP-2, RP-4). Only exact names
 * count: {@code <thinking-cap>} is content when {@code thinking} is a reasoning tag.
 *
 * @param names lower-case tag names
 */
public record ReasoningTags(Set<String> names) {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_.:-]{0,40}");

    /**
     * The names open models use: {@code think} (DeepSeek-R1, Qwen3, QwQ, MiniMax), {@code thinking} (Claude-style
     * prompts, Gemma/Hermes fine-tunes), {@code reasoning} and {@code reflection} (Reflection-style fine-tunes),
     * {@code thought} (Gemini-style prompts), {@code scratchpad}.
     */
    public static final ReasoningTags DEFAULT =
            of("think", "thinking", "reasoning", "thought", "reflection", "scratchpad");

    public ReasoningTags {
        Set<String> clean = new LinkedHashSet<>();
        for (String n : names == null ? Set.<String>of() : names) {
            String lower = n == null ? "" : n.strip().toLowerCase(Locale.ROOT);
            if (!NAME.matcher(lower).matches()) {
                throw new IllegalArgumentException(
                        "agent.reasoning_tags: '" + n + "' is not a tag name (letters, digits, _ . : -)");
            }
            clean.add(lower);
        }
        names = Set.copyOf(clean);
    }

    /** Whether a configured name can be a reasoning tag name. */
    public static boolean isValidName(String name) {
        return name != null
                && NAME.matcher(name.strip().toLowerCase(Locale.ROOT)).matches();
    }

    public static ReasoningTags of(String... names) {
        return new ReasoningTags(Set.of(names));
    }

    public boolean contains(String lowerName) {
        return names.contains(lowerName);
    }
}
