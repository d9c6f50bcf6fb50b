package dev.clawgate.core.render;

/**
 * Markdown fenced code block delimiters, as CommonMark reads them: up to three spaces of indent, then three or more
 * backticks or tildes; an opener may carry an info string (a backtick opener's may not contain a backtick); a closer
 * uses the same character, at least as many of them, and nothing else.
 */
record FenceSyntax(char marker, int length, String openerLine) {

    /** The line that reopens this fence in a later chunk: the opener without its indent. */
    String reopen() {
        return openerLine;
    }

    /** The line that closes this fence. */
    String closer() {
        return String.valueOf(marker).repeat(length);
    }

    /** The fence {@code line} opens, or null if it opens none. */
    static FenceSyntax opening(CharSequence line) {
        int end = trimmedEnd(line);
        int i = indent(line);
        if (i < 0 || i >= end) return null;
        char c = line.charAt(i);
        if (c != '`' && c != '~') return null;
        int run = run(line, i, c);
        if (run < 3) return null;
        for (int k = i + run; k < end; k++) {
            if (c == '`' && line.charAt(k) == '`') return null;
        }
        return new FenceSyntax(c, run, line.subSequence(i, end).toString());
    }

    /** Whether {@code line} closes this fence. */
    boolean closedBy(CharSequence line) {
        int end = trimmedEnd(line);
        int i = indent(line);
        if (i < 0 || i >= end || line.charAt(i) != marker) return false;
        int run = run(line, i, marker);
        return run >= length && i + run == end;
    }

    private static int indent(CharSequence line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') i++;
        return i <= 3 ? i : -1;
    }

    private static int run(CharSequence line, int from, char c) {
        int k = from;
        while (k < line.length() && line.charAt(k) == c) k++;
        return k - from;
    }

    private static int trimmedEnd(CharSequence line) {
        int end = line.length();
        while (end > 0 && Character.isWhitespace(line.charAt(end - 1))) end--;
        return end;
    }
}
