package dev.clawgate.core.internal.sanitize;

/**
 * The last step of sanitising, whole or streamed (SPEC RP-2): no blank lines before the first text, and at most one
 * blank line in a row where removed blocks left more. A stream sends whitespace as it comes up to the second newline of
 * a run (so paragraph breaks reach block streaming at once) and holds only what a later newline could still drop, so
 * the whole reply and any cutting of it into pieces give the same characters, the end included.
 */
final class TidyStream {
    private final StringBuilder held = new StringBuilder();
    private boolean started;
    private int newlines;

    String push(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c)) {
                out.append(held);
                held.setLength(0);
                out.append(c);
                started = true;
                newlines = 0;
            } else if (!started) {
                if (c == '\n') held.setLength(0); // leading blank lines go
                else held.append(c); // the first line's indentation stays
            } else if (newlines < 2) {
                out.append(c);
                if (c == '\n') newlines++;
            } else if (c == '\n') {
                held.setLength(0); // a third newline in a row: the blank line it makes is dropped
            } else {
                held.append(c); // indentation of the next line, unless another newline comes first
            }
        }
        return out.toString();
    }

    /** The end of the reply: what is held is blank space after a paragraph break, dropped. */
    String finish() {
        held.setLength(0);
        return "";
    }
}
