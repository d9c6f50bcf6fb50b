package dev.clawgate.core.internal.tool.builtin;

/** Keeps a tool's output within a character budget, saying what was cut (SPEC AG-3). */
final class ResultText {
    private ResultText() {}

    /**
     * {@code text} if it fits in {@code max}; else its head plus {@code note}, the whole within {@code max} when
     * possible.
     */
    static String fit(String text, int max, String note) {
        if (text.length() <= max) return text;
        String suffix = "\n" + note;
        int keep = Math.max(0, max - suffix.length());
        // never split a surrogate pair: half a character is not text
        if (keep > 0 && Character.isHighSurrogate(text.charAt(keep - 1))) keep--;
        return text.substring(0, keep) + suffix;
    }

    /** {@code text} cut to {@code max} with the standard note. */
    static String fit(String text, int max) {
        return fit(text, max, "[... output cut at " + max + " characters of " + text.length() + "]");
    }
}
