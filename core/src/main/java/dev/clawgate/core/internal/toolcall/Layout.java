package dev.clawgate.core.internal.toolcall;

import java.util.regex.Pattern;

/** Whitespace clean-up after markup was cut out of a reply. */
final class Layout {
    private static final Pattern BLANK_RUN = Pattern.compile("\\n[ \\t]*\\n(?:[ \\t]*\\n)+");

    private Layout() {}

    /** Collapses runs of blank lines left by removed blocks into one blank line, and trims. */
    static String tidy(String text) {
        return BLANK_RUN.matcher(text).replaceAll("\n\n").strip();
    }
}
