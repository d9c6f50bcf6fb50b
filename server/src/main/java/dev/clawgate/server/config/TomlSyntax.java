package dev.clawgate.server.config;

/**
 * A TOML syntax error said for people: the line it is on, quoted without its value (a value may be a secret, SPEC
 * OP-6), and what is wrong in plain words instead of the parser's token names.
 */
final class TomlSyntax {
    private static final int MAX_QUOTE = 80;

    private TomlSyntax() {}

    /** Line {@code number} (1-based) of {@code text}, or null when there is none. */
    static String line(String text, int number) {
        if (number < 1) return null;
        String[] lines = text.split("\\R", -1);
        return number <= lines.length ? lines[number - 1] : null;
    }

    /**
     * The line the error is on: {@code number}, or, when the parser stopped past it (a blank line, the end of the file,
     * as for a duplicate key), the last line before it with something on it.
     */
    static int errorLine(String text, int number) {
        for (int n = number; n >= 1; n--) {
            String l = line(text, n);
            if (l != null && !l.isBlank() && !l.strip().startsWith("#")) return n;
        }
        return number;
    }

    /** The line as quoted in the message: a table header whole, a {@code key = value} line only up to its value. */
    static String quote(String line) {
        String t = line.strip();
        int eq = t.indexOf('=');
        if (!t.startsWith("[") && eq >= 0) t = t.substring(0, eq + 1).strip() + " …";
        if (t.length() > MAX_QUOTE) t = t.substring(0, MAX_QUOTE) + "…";
        return "'" + t + "'";
    }

    /** What the parser's {@code message} means on {@code line} (null when unknown), and how to fix it. */
    static String explain(String message, String line) {
        String m = message == null ? "" : message;
        String t = line == null ? "" : line.strip();
        if (m.startsWith("Newline not permitted")) {
            if (t.startsWith("[")) return "the table header is not closed; end it with ]";
            if (t.contains("{")) return "an inline table must end on the same line; close it with }";
            return "a string is not closed before the end of the line; add its closing quote";
        }
        if (m.startsWith("Unknown token")) {
            return "the value is not a string, number, boolean, date or array; put text in double quotes, e.g. key = "
                    + "\"text\"";
        }
        if (m.startsWith("More data after value"))
            return "there is more after the value; write one key = value per line";
        if (m.startsWith("Premature end of file"))
            return "the file ends inside an array, inline table or multi-line string; close it";
        if (m.startsWith("Duplicate key")) return "this key is set twice; keep one";
        if (m.contains("KEY_VAL_SEP")) return "a key is missing before '='; write key = value";
        return m;
    }
}
