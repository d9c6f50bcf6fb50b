package dev.clawgate.core.toolcall;

/** Finds where a JSON object or array that starts at a given index ends, minding strings and escapes. */
final class JsonSpan {
    private JsonSpan() {
    }

    /** The index just past the balanced value starting at {@code start}, or -1 if it does not close before {@code limit}. */
    static int end(String text, int start, int limit) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < limit; i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') i++;
                else if (c == '"') inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
                if (depth == 0) return i + 1;
            }
        }
        return -1;
    }
}
