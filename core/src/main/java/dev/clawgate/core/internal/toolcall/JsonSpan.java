package dev.clawgate.core.internal.toolcall;

/**
 * Finds where a JSON object or array that starts at a given index ends, minding strings and escapes. A
 * {@link Resumable} span continues where the last look stopped, so text that arrives in pieces is read once.
 */
final class JsonSpan {
    private JsonSpan() {}

    /**
     * The index just past the balanced value starting at {@code start}, or -1 if it does not close before
     * {@code limit}.
     */
    static int end(CharSequence text, int start, int limit) {
        Resumable r = new Resumable(start);
        return r.advance(text, limit);
    }

    /** A balance scan that can be continued after more text arrived. */
    static final class Resumable {
        private int at;
        private int depth;
        private boolean inString;
        private boolean escaped;
        private long steps;
        private int done = -1;

        Resumable(int start) {
            this.at = start;
        }

        long steps() {
            return steps;
        }

        /** Scans on up to {@code limit}; the index just past the balanced value, or -1 if not closed yet. */
        int advance(CharSequence text, int limit) {
            if (done >= 0) return done;
            for (; at < limit; at++) {
                steps++;
                char c = text.charAt(at);
                if (inString) {
                    if (escaped) escaped = false;
                    else if (c == '\\') escaped = true;
                    else if (c == '"') inString = false;
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    depth--;
                    if (depth <= 0) {
                        done = ++at;
                        return done;
                    }
                }
            }
            return -1;
        }
    }
}
