package dev.clawgate.core.internal.toolcall;

import java.util.Locale;

/**
 * One markup tag read at a '&lt;': {@code <name attrs>}, {@code </name>} or {@code <name/>}. A tag ends within
 * {@link OutputScanner#MAX_TAG} characters on its line; anything else is text.
 *
 * @param name lower case, with its namespace ({@code minimax:tool_call})
 * @param local the name after the namespace
 * @param attrs the raw text between the name and '&gt;' ({@code =shell} for {@code <function=shell>})
 * @param end the index just past '&gt;'
 */
record Tag(String name, String local, boolean namespaced, boolean closing, boolean selfClosing, String attrs, int end) {
    static final Tag NONE = new Tag("", "", false, false, false, "", -1);

    /** The tag at {@code p} (which holds '&lt;'); {@link #NONE} if it is not one; null while more text could tell. */
    static Tag read(CharSequence b, int p, boolean eof) {
        int len = b.length();
        int i = p + 1;
        boolean closing = i < len && b.charAt(i) == '/';
        if (closing) i++;
        if (i >= len) return eof ? NONE : null;
        if (!isAsciiLetter(b.charAt(i))) return NONE;
        int nameStart = i;
        while (i < len
                && (Character.isLetterOrDigit(b.charAt(i)) || "_:.-".indexOf(b.charAt(i)) >= 0)
                && i - p < OutputScanner.MAX_TAG) i++;
        int nameEnd = i;
        while (i < len && i - p < OutputScanner.MAX_TAG) {
            char c = b.charAt(i);
            if (c == '>') break;
            if (c == '<' || c == '\n') return NONE;
            if (i == nameEnd && !(Character.isWhitespace(c) || c == '/' || c == '=')) return NONE;
            i++;
        }
        if (i >= len) return eof ? NONE : null;
        if (b.charAt(i) != '>') return NONE;
        String name = b.subSequence(nameStart, nameEnd).toString().toLowerCase(Locale.ROOT);
        String attrs = b.subSequence(nameEnd, i).toString();
        boolean self = attrs.endsWith("/");
        if (self) attrs = attrs.substring(0, attrs.length() - 1);
        int colon = name.lastIndexOf(':');
        return new Tag(name, name.substring(colon + 1), colon >= 0, closing, self, attrs, i + 1);
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
