package dev.clawgate.core.history;

import java.util.List;
import java.util.Locale;

/**
 * The one context-overflow detector (SPEC HI-5), shared by the providers and the turn
 * pipeline so the two can never disagree about what an overflow looks like.
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
            "reduce the length of the messages");

    private OverflowDetector() {
    }

    /** True when a provider's error text says the prompt did not fit the model's context. */
    public static boolean isContextOverflow(String errorText) {
        if (errorText == null || errorText.isEmpty()) return false;
        String t = errorText.toLowerCase(Locale.ROOT);
        for (String p : PHRASES) {
            if (t.contains(p)) return true;
        }
        return false;
    }
}
