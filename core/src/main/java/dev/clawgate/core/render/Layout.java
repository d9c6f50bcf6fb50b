package dev.clawgate.core.render;

import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A reply analysed once for cutting (SPEC OUT-1): grapheme cluster boundaries, running unit and line counts, and the
 * markdown blocks a cut must respect (fenced code, tables).
 */
final class Layout {
    enum LineKind {
        PLAIN,
        FENCE_OPEN,
        FENCE_BODY,
        FENCE_CLOSE,
        TABLE_HEADER,
        TABLE_SEPARATOR,
        TABLE_ROW
    }

    /** Where a cut may fall, weakest first. */
    enum Break {
        HARD,
        WORD,
        SENTENCE,
        LINE,
        PARAGRAPH,
        END
    }

    /**
     * A fenced code block.
     *
     * @param bodyStart where its first content line starts
     * @param end where its closing line starts, or the text's length if it is never closed
     */
    record Fence(FenceSyntax syntax, int bodyStart, int end) {}

    /**
     * A markdown table.
     *
     * @param start where its header row starts
     * @param lockedUntil the last position of the header, separator and first row where no cut may fall
     */
    record Table(String header, String separator, int start, int lockedUntil) {
        String repeatedHeader() {
            return header + "\n" + separator + "\n";
        }
    }

    private static final Pattern TABLE_SEPARATOR =
            Pattern.compile("\\s*\\|?\\s*:?-+:?\\s*(\\|\\s*:?-+:?\\s*)*\\|?\\s*");
    private static final String CLOSING_PUNCTUATION = "\"')]}*_\u00bb\u201d\u2019";
    private static final String SENTENCE_END = ".!?\u2026";
    private static final String CJK_SENTENCE_END = "\u3002\uff01\uff1f";

    final String text;
    final int length;
    final TextMeasure measure;
    private final boolean[] clusterStart;
    private final int[] units;
    private final int[] newlines;
    private final int[] contentEnd;
    private final int[] contentStart;
    private final int[] lineStart;
    private final int[] lineEnd;
    private final LineKind[] kinds;
    private final Fence[] fenceAfter;
    private final Table[] tables;

    Layout(String text, TextMeasure measure) {
        this.text = text;
        this.length = text.length();
        this.measure = measure;
        int n = length;
        clusterStart = new boolean[n + 1];
        BreakIterator clusters = BreakIterator.getCharacterInstance(Locale.ROOT);
        clusters.setText(text);
        for (int b = clusters.first(); b != BreakIterator.DONE; b = clusters.next()) clusterStart[b] = true;
        units = new int[n + 1];
        newlines = new int[n + 1];
        contentEnd = new int[n + 1];
        for (int i = 0; i < n; ) {
            int next = i + Character.charCount(text.codePointAt(i));
            int u = units[i] + measure.units(text, i, next);
            for (int k = i + 1; k <= next; k++) {
                units[k] = u;
                newlines[k] = newlines[i] + (text.charAt(i) == '\n' ? 1 : 0);
                contentEnd[k] = Character.isWhitespace(text.charAt(i)) ? contentEnd[i] : next;
            }
            i = next;
        }
        contentStart = new int[n + 1];
        contentStart[n] = n;
        for (int i = n - 1; i >= 0; i--)
            contentStart[i] = Character.isWhitespace(text.charAt(i)) ? contentStart[i + 1] : i;

        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < n; i++) if (text.charAt(i) == '\n') starts.add(i + 1);
        int lines = starts.size();
        lineStart = new int[lines];
        lineEnd = new int[lines];
        for (int i = 0; i < lines; i++) {
            lineStart[i] = starts.get(i);
            lineEnd[i] = i + 1 < lines ? starts.get(i + 1) - 1 : n;
        }
        kinds = new LineKind[lines];
        fenceAfter = new Fence[lines];
        tables = new Table[lines];
        scanBlocks();
    }

    private void scanBlocks() {
        int lines = lineStart.length;
        Fence open = null;
        for (int i = 0; i < lines; i++) {
            String line = line(i);
            if (open != null) {
                if (open.syntax().closedBy(line)) {
                    kinds[i] = LineKind.FENCE_CLOSE;
                    open = null;
                } else kinds[i] = LineKind.FENCE_BODY;
                fenceAfter[i] = open;
                continue;
            }
            FenceSyntax opening = FenceSyntax.opening(line);
            if (opening != null) {
                int end = length;
                for (int k = i + 1; k < lines; k++) {
                    if (opening.closedBy(line(k))) {
                        end = lineStart[k];
                        break;
                    }
                }
                open = new Fence(opening, Math.min(length, lineEnd[i] + 1), end);
                kinds[i] = LineKind.FENCE_OPEN;
                fenceAfter[i] = open;
                continue;
            }
            kinds[i] = LineKind.PLAIN;
            if (i + 1 < lines
                    && isTableHeader(line)
                    && TABLE_SEPARATOR.matcher(line(i + 1)).matches()
                    && line(i + 1).indexOf('|') >= 0) {
                i = scanTable(i);
            }
        }
    }

    /** Marks the table whose header is line {@code header}; returns its last line. */
    private int scanTable(int header) {
        int last = header + 1;
        while (last + 1 < lineStart.length && isTableRow(line(last + 1))) last++;
        int lockedUntil = last > header + 1 ? lineStart[header + 2] : lineEnd[header + 1] - 1;
        Table table = new Table(line(header).strip(), line(header + 1).strip(), lineStart[header], lockedUntil);
        for (int k = header; k <= last; k++) {
            tables[k] = table;
            kinds[k] = k == header
                    ? LineKind.TABLE_HEADER
                    : k == header + 1 ? LineKind.TABLE_SEPARATOR : LineKind.TABLE_ROW;
        }
        return last;
    }

    private static boolean isTableHeader(String line) {
        return line.indexOf('|') >= 0 && !line.isBlank();
    }

    private static boolean isTableRow(String line) {
        return line.indexOf('|') >= 0 && !line.isBlank() && FenceSyntax.opening(line) == null;
    }

    /** Line {@code i} without its line break (nor a trailing carriage return). */
    String line(int i) {
        int end = lineEnd[i];
        if (end > lineStart[i] && text.charAt(end - 1) == '\r') end--;
        return text.substring(lineStart[i], end);
    }

    int lineOf(int p) {
        int i = Arrays.binarySearch(lineStart, p);
        return i >= 0 ? i : -i - 2;
    }

    /** Where the line holding {@code p} ends (its line break, or the text's end). */
    int lineEndOf(int p) {
        return lineEnd[lineOf(p)];
    }

    int lineStartOf(int p) {
        return lineStart[lineOf(p)];
    }

    /** The next grapheme cluster boundary after {@code p}, or -1 at the end. */
    int nextCluster(int p) {
        for (int q = p + 1; q <= length; q++) if (clusterStart[q]) return q;
        return -1;
    }

    /** The next code point boundary after {@code p}. */
    int nextCodePoint(int p) {
        return p + Character.charCount(text.codePointAt(p));
    }

    /** Units of {@code text[from, to)}; both must be code point boundaries. */
    int units(int from, int to) {
        return units[to] - units[from];
    }

    int newlines(int from, int to) {
        return newlines[to] - newlines[from];
    }

    /** The end of the last non-whitespace character before {@code p}, or 0 if there is none. */
    int contentEnd(int p) {
        return contentEnd[p];
    }

    /** The first non-whitespace character at or after {@code p}, or the length if there is none. */
    int contentStart(int p) {
        return contentStart[p];
    }

    /** The fenced code block a cut at {@code p} would leave open. */
    Fence fenceAt(int p) {
        int i = lineOf(p);
        if (p == lineStart[i]) return i == 0 ? null : fenceAfter[i - 1];
        return fenceAfter[i];
    }

    /** The table header to repeat when a chunk starts at {@code p}, the start of a table row; else null. */
    Table tableContinuedAt(int p) {
        int i = lineOf(p);
        return kinds[i] == LineKind.TABLE_ROW && contentStart(lineStart[i]) >= p ? tables[i] : null;
    }

    /** The table the line holding {@code p} belongs to (header, separator or row), or null. */
    Table tableAt(int p) {
        return tables[lineOf(p)];
    }

    /** Whether a cut at {@code p} keeps fence delimiter lines and (if asked) table rows whole. */
    boolean keepsBlocks(int p, boolean tableRows) {
        int i = lineOf(p);
        boolean inLine = p > lineStart[i];
        if (inLine && kinds[i] == LineKind.FENCE_OPEN) return false;
        if (inLine && kinds[i] == LineKind.FENCE_CLOSE && p < lineEnd[i]) return false;
        Table t = tables[i];
        if (tableRows && t != null) {
            if (p > t.start() && p <= t.lockedUntil()) return false;
            if (inLine && kinds[i] == LineKind.TABLE_ROW && p < lineEnd[i]) return false;
        }
        return true;
    }

    /** What kind of break a cut at {@code p} is (as if the text went on past its end). */
    Break breakAt(int p) {
        int i = lineOf(p);
        if (p == lineStart[i] && i > 0) return isBlank(i - 1) ? Break.PARAGRAPH : Break.LINE;
        if (p < length) {
            char c = text.charAt(p);
            if (c == '\n' || c == '\r') return isBlank(i) ? Break.PARAGRAPH : Break.LINE;
            if (Character.isWhitespace(c)) return endsSentence(p) ? Break.SENTENCE : Break.WORD;
        }
        if (p > 0 && CJK_SENTENCE_END.indexOf(text.charAt(p - 1)) >= 0) return Break.SENTENCE;
        return Break.HARD;
    }

    private boolean isBlank(int line) {
        return contentStart(lineStart[line]) >= lineEnd[line];
    }

    private boolean endsSentence(int p) {
        int q = p - 1;
        while (q > 0 && p - q <= 3 && CLOSING_PUNCTUATION.indexOf(text.charAt(q)) >= 0) q--;
        return q >= 0 && (SENTENCE_END.indexOf(text.charAt(q)) >= 0 || CJK_SENTENCE_END.indexOf(text.charAt(q)) >= 0);
    }
}
