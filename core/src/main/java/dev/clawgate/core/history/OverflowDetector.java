package dev.clawgate.core.history;

import java.util.List;
import java.util.Locale;

/**
 * The one context-overflow detector (SPEC HI-5), shared by the providers and the turn pipeline so the two can never
 * disagree about what an overflow looks like.
 */
public final class OverflowDetector {
    private static final List<String> PHRASES = List.of(
            "exceeds the context window",
            "context window of this model",
            "maximum context length",
            "context length exceeded",
            "context_length_exceeded",
            "too many tokens",
            "token limit exceeded",
            "prompt is too long",
            "exceed context limit",
            "input is too long",
            "exceeds the available context size",
            "context window has overflowed",
            "context window exceeded",
            "reduce the length of the messages",
            // Gemini: "The input token count (N) exceeds the maximum number of tokens allowed (M)."
            "exceeds the maximum number of tokens allowed");

    private OverflowDetector() {}

    /** True when a provider's error text says the prompt did not fit the model's context. */
    public static boolean isContextOverflow(String errorText) {
        if (errorText == null || errorText.isEmpty()) return false;
        String t = errorText.toLowerCase(Locale.ROOT);
        for (String p : PHRASES) {
            if (t.contains(p)) return true;
        }
        return false;
    }

    /**
     * The same check with a provider's own extra phrases (e.g. a CLI provider's configured {@code overflow_patterns}),
     * matched case-insensitively as plain substrings like the built-in ones.
     */
    public static boolean isContextOverflow(String errorText, List<String> extraPhrases) {
        if (isContextOverflow(errorText)) return true;
        if (errorText == null || errorText.isEmpty() || extraPhrases == null) return false;
        String t = errorText.toLowerCase(Locale.ROOT);
        for (String p : extraPhrases) {
            if (p != null && !p.isBlank() && t.contains(p.toLowerCase(Locale.ROOT))) return true;
        }
        return false;
    }
}
