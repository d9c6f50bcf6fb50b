package dev.clawgate.core.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.fixtures.PropertyRun;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The chunker's invariants over thousands of generated replies (SPEC OUT-1): no chunk over the limit or the line limit,
 * none blank, fences balanced and never empty, the text recoverable, a split fence reopened with the same fence and
 * language, a table cut only between rows with its header repeated, no cut inside a word when whitespace was available,
 * none inside a grapheme cluster.
 */
class ChunkerPropertyTest {
    private static final Pattern OPENER = Pattern.compile(" {0,3}(`{3,}|~{3,})([^\\n]*)");
    private static final Pattern LEADING_OPENER = Pattern.compile("\\A {0,3}(?:`{3,}|~{3,})[^\\n]*\\n");
    private static final Pattern TRAILING_CLOSER = Pattern.compile("\\n(?:`{3,}|~{3,})\\z");
    private static final Pattern LEADING_TABLE_HEADER =
            Pattern.compile("\\A[^\\n]*\\|[^\\n]*\\n[ \\t]*[|:\\- \\t]*-[|:\\- \\t]*\\n");
    private static final Pattern SEPARATOR = Pattern.compile("\\s*\\|?\\s*:?-+:?\\s*(\\|\\s*:?-+:?\\s*)*\\|?\\s*");
    private static final String CJK_SENTENCE_END = "\u3002\uff01\uff1f";

    /** Where each chunk's own text lies in the original, and whether the chunk repeated a table header before it. */
    record Span(int start, int end, boolean repeatsHeader) {}

    // SPEC OUT-1
    @Test
    void chunksOfGeneratedRepliesKeepEveryInvariant() {
        PropertyRun.forAll("chunker invariants", r -> {
            String text = ReplyTexts.reply(r);
            ChunkLimits limits = limits(r);
            List<String> chunks = Chunker.split(text, limits);
            String context = "limits " + limits.maxUnits() + "/" + limits.maxLines() + " units="
                    + limits.measure().units("\u00e9\u20ac") + " text:\n" + text + "\nchunks: " + chunks;
            for (String chunk : chunks) {
                assertThat(chunk.isBlank()).as("blank chunk; %s", context).isFalse();
                assertThat(limits.measure().units(chunk))
                        .as("chunk over the limit: %s; %s", chunk, context)
                        .isLessThanOrEqualTo(limits.maxUnits());
                if (limits.maxLines() > 0) {
                    assertThat(chunk.split("\n", -1).length)
                            .as("too many lines: %s; %s", chunk, context)
                            .isLessThanOrEqualTo(limits.maxLines());
                }
                if (roomForFences(text, limits)) {
                    assertThat(fencesBalancedAndFilled(chunk))
                            .as("unbalanced or empty fence: %s; %s", chunk, context)
                            .isTrue();
                }
            }
            List<Span> spans = align(text, chunks);
            assertThat(spans)
                    .as("text not recoverable (or a reopened fence or repeated header not the original's); %s", context)
                    .isNotNull();
            Blocks blocks = new Blocks(text);
            if (roomForTables(blocks, limits)) checkTables(blocks, spans, context);
            if (limits.maxUnits() >= 32) {
                checkGraphemes(text, spans, context);
                checkNoNeedlessWordSplit(text, spans, context);
            }
        });
    }

    // SPEC OUT-1: the real channel limits on long replies
    @Test
    void channelLimitsOnLongRepliesKeepTheInvariants() {
        ChunkLimits[] channels = {
            ChunkLimits.of(4096),
            new ChunkLimits(2000, TextMeasure.utf16(), 17),
            ChunkLimits.of(4000),
            ChunkLimits.utf8Bytes(400, 1)
        };
        PropertyRun.forAll("channel limits", r -> {
            if (r.nextInt(10) != 0) return; // long texts: a tenth of the trials is plenty
            StringBuilder sb = new StringBuilder();
            while (sb.length() < 12_000) sb.append(ReplyTexts.reply(r, false)).append("\n\n");
            String text = sb.toString();
            ChunkLimits limits = channels[r.nextInt(channels.length)];
            List<String> chunks = Chunker.split(text, limits);
            for (String chunk : chunks) {
                assertThat(limits.measure().units(chunk)).isLessThanOrEqualTo(limits.maxUnits());
                if (limits.maxLines() > 0)
                    assertThat(chunk.split("\n", -1).length).isLessThanOrEqualTo(limits.maxLines());
                if (limits.maxLines() != 1)
                    assertThat(fencesBalancedAndFilled(chunk)).as(chunk).isTrue();
            }
            assertThat(align(text, chunks)).as("text not recoverable").isNotNull();
        });
    }

    // SPEC OUT-1: the alignment itself refuses a fence reopened as another fence or language, and a header not the
    // table's own
    @Test
    void theCheckerRefusesAReopenedFenceOrARepeatedHeaderThatIsNotTheOriginals() {
        String code = "```python\na = 1\nb = 2\n```";
        assertThat(align(code, List.of("```python\na = 1\n```", "```python\nb = 2\n```")))
                .isNotNull();
        assertThat(align(code, List.of("```python\na = 1\n```", "```js\nb = 2\n```")))
                .isNull();
        assertThat(align(code, List.of("```python\na = 1\n~~~", "~~~python\nb = 2\n```")))
                .isNull();
        String table = "| h |\n|---|\n| 1 |\n| 2 |";
        assertThat(align(table, List.of("| h |\n|---|\n| 1 |", "| h |\n|---|\n| 2 |")))
                .isNotNull();
        assertThat(align(table, List.of("| h |\n|---|\n| 1 |", "| x |\n|---|\n| 2 |")))
                .isNull();
        List<Span> noHeader = align(table, List.of("| h |\n|---|\n| 1 |", "| 2 |"));
        assertThat(noHeader).isNotNull();
        assertThatThrownBy(() -> checkTables(new Blocks(table), noHeader, "")).hasMessageContaining("header repeated");
        List<Span> midRow = align(table, List.of("| h |\n|---|\n| 1", "|\n| 2 |"));
        assertThatThrownBy(() -> checkTables(new Blocks(table), midRow, "")).hasMessageContaining("table");
    }

    static ChunkLimits limits(Random r) {
        TextMeasure measure = switch (r.nextInt(3)) {
            case 0 -> TextMeasure.utf16();
            case 1 -> TextMeasure.utf8Bytes();
            default -> TextMeasure.codePoints();
        };
        int units = r.nextInt(10) < 7 ? 32 + r.nextInt(570) : ChunkLimits.MIN_UNITS + r.nextInt(30);
        int lines = switch (r.nextInt(10)) {
            case 0, 1, 2, 3, 4 -> 0;
            case 5, 6, 7 -> 3 + r.nextInt(18);
            default -> 1 + r.nextInt(4);
        };
        return new ChunkLimits(units, measure, lines);
    }

    /** Whether the limit can hold every fence's opener, one cluster and its closer (else fences may be dropped). */
    private static boolean roomForFences(String text, ChunkLimits limits) {
        if (limits.maxLines() == 1 || limits.maxLines() == 2) return false;
        for (String line : text.split("\n")) {
            Matcher m = OPENER.matcher(line);
            if (m.matches() && limits.measure().units(line.strip()) * 2 + 2 + 30 > limits.maxUnits()) return false;
        }
        return true;
    }

    /** Every fence opened in the chunk is closed in it, and holds something. */
    static boolean fencesBalancedAndFilled(String chunk) {
        String marker = null;
        boolean filled = false;
        for (String line : chunk.split("\n", -1)) {
            if (marker == null) {
                Matcher m = OPENER.matcher(line);
                if (m.matches() && !(m.group(1).charAt(0) == '`' && m.group(2).contains("`"))) {
                    marker = m.group(1);
                    filled = false;
                }
            } else if (isCloser(line, marker)) {
                if (!filled) return false;
                marker = null;
            } else if (!line.isBlank()) {
                filled = true;
            }
        }
        return marker == null;
    }

    private static boolean isCloser(String line, String marker) {
        String s = line.strip();
        return s.startsWith(marker) && s.chars().allMatch(c -> c == marker.charAt(0));
    }

    /**
     * Aligns the chunks with the original: each chunk, after dropping a synthetic opener or table header at its start
     * and a synthetic closer at its end, must be the next piece of the original, with nothing but whitespace between
     * pieces. A dropped line must be the original's own: an opener is the opener of the fence the piece starts in (same
     * fence and language), a closer closes the fence the piece ends in, a header is the header and separator of the
     * table whose row the piece starts with. Returns the pieces' spans, or null if none fits.
     */
    static List<Span> align(String text, List<String> chunks) {
        List<Span> spans = new ArrayList<>();
        return align(new Blocks(text), chunks, 0, 0, spans, new HashSet<>()) ? spans : null;
    }

    private static boolean align(Blocks blocks, List<String> chunks, int i, int pos, List<Span> spans, Set<Long> dead) {
        String text = blocks.text;
        if (i == chunks.size()) return text.substring(pos).isBlank();
        if (!dead.add(((long) i << 32) | pos)) return false;
        String chunk = chunks.get(i);
        for (Variant v : variants(chunk)) {
            int at = skipWhitespace(text, pos);
            if (v.body().isEmpty() || !text.startsWith(v.body(), at)) continue;
            int end = at + v.body().length();
            if (v.opener() != null && !v.opener().equals(blocks.openerOfFenceAround(at))) continue;
            if (v.header() != null && !v.header().equals(blocks.headerOfRowAt(at))) continue;
            if (v.closer() == null || blocks.closesFenceAround(v.closer(), end - 1)) {
                spans.add(new Span(at, end, v.header() != null));
                if (align(blocks, chunks, i + 1, end, spans, dead)) return true;
                spans.removeLast();
            }
            // a closer at the chunk's end may be the fence's own, with blank lines before it dropped
            if (v.closer() != null) {
                int ownCloser = skipWhitespace(text, end);
                if (text.startsWith(v.closer(), ownCloser) && blocks.closesFenceAround(v.closer(), end - 1)) {
                    spans.add(new Span(at, end, v.header() != null));
                    if (align(blocks, chunks, i + 1, ownCloser + v.closer().length(), spans, dead)) return true;
                    spans.removeLast();
                }
            }
        }
        return false;
    }

    private static int skipWhitespace(String text, int pos) {
        int at = pos;
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        return at;
    }

    /** A reading of a chunk: its own text, and the synthetic lines dropped around it (null when none). */
    private record Variant(String body, String opener, String header, String closer) {}

    /** The chunk's possible readings: with or without its synthetic lines, whitespace at both ends dropped. */
    private static List<Variant> variants(String chunk) {
        List<Variant> heads = new ArrayList<>(List.of(new Variant(chunk, null, null, null)));
        Matcher opener = LEADING_OPENER.matcher(chunk);
        if (opener.find())
            heads.add(new Variant(
                    chunk.substring(opener.end()),
                    chunk.substring(0, opener.end() - 1).strip(),
                    null,
                    null));
        Matcher header = LEADING_TABLE_HEADER.matcher(chunk);
        if (header.find())
            heads.add(new Variant(chunk.substring(header.end()), null, chunk.substring(0, header.end()), null));
        List<Variant> variants = new ArrayList<>();
        for (Variant head : heads) {
            variants.add(new Variant(head.body().strip(), head.opener(), head.header(), null));
            Matcher closer = TRAILING_CLOSER.matcher(head.body());
            if (closer.find()) {
                variants.add(new Variant(
                        head.body().substring(0, closer.start()).strip(),
                        head.opener(),
                        head.header(),
                        head.body().substring(closer.start() + 1)));
            }
        }
        return variants;
    }

    /**
     * The original's fenced code blocks and markdown tables, read line by line as CommonMark and GitHub tables have
     * them (independently of the chunker's own reading).
     */
    static final class Blocks {
        final String text;
        /** Per line: the opener (indent and trailing blanks dropped) of the fence whose body holds it, or null. */
        private final String[] fenceOpener;
        /** Per line: the marker and length of that fence, e.g. {@code ````}. */
        private final String[] fenceCloser;
        /** Per line: the repeated header ({@code header\nseparator\n}) of the table whose data row it is, or null. */
        private final String[] rowHeader;
        /** Per line: whether it is the first data row of its table (which stays with the header). */
        private final boolean[] firstRow;
        /** Per line: the number of the table it belongs to (header, separator or row), or -1. */
        private final int[] table;

        private final int[] lineStarts;
        private final List<String[]> tables = new ArrayList<>();

        Blocks(String text) {
            this.text = text;
            String[] lines = text.split("\n", -1);
            int n = lines.length;
            fenceOpener = new String[n];
            fenceCloser = new String[n];
            rowHeader = new String[n];
            firstRow = new boolean[n];
            table = new int[n];
            java.util.Arrays.fill(table, -1);
            lineStarts = new int[n];
            for (int i = 1; i < n; i++) lineStarts[i] = lineStarts[i - 1] + lines[i - 1].length() + 1;
            for (int i = 0; i < n; i++) {
                Matcher open = OPENER.matcher(lines[i]);
                if (open.matches()
                        && !(open.group(1).charAt(0) == '`' && open.group(2).contains("`"))) {
                    String marker = open.group(1);
                    int k = i + 1;
                    while (k < n && !isCloser(lines[k], marker)) {
                        fenceOpener[k] = lines[i].strip();
                        fenceCloser[k] = marker;
                        k++;
                    }
                    i = k;
                    continue;
                }
                if (i + 1 < n
                        && lines[i].contains("|")
                        && !lines[i].isBlank()
                        && lines[i + 1].contains("|")
                        && SEPARATOR.matcher(lines[i + 1]).matches()) {
                    String header = lines[i].strip() + "\n" + lines[i + 1].strip() + "\n";
                    table[i] = tables.size();
                    table[i + 1] = tables.size();
                    int k = i + 2;
                    while (k < n
                            && lines[k].contains("|")
                            && !lines[k].isBlank()
                            && !OPENER.matcher(lines[k]).matches()) {
                        rowHeader[k] = header;
                        firstRow[k] = k == i + 2;
                        table[k] = tables.size();
                        k++;
                    }
                    tables.add(new String[] {header, longestRow(lines, i + 2, k)});
                    i = k - 1;
                }
            }
        }

        private static String longestRow(String[] lines, int from, int to) {
            String longest = "";
            for (int k = from; k < to; k++) if (lines[k].length() > longest.length()) longest = lines[k];
            return longest;
        }

        int lineOf(int p) {
            int lo = 0;
            int hi = lineStarts.length - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (lineStarts[mid] <= p) lo = mid;
                else hi = mid - 1;
            }
            return lo;
        }

        /** The opener of the fence whose body holds position {@code p}, or null. */
        String openerOfFenceAround(int p) {
            return p < text.length() ? fenceOpener[lineOf(p)] : null;
        }

        /**
         * Whether {@code closer} closes the fence whose body holds position {@code p}: the same character, at least as
         * many.
         */
        boolean closesFenceAround(String closer, int p) {
            String marker = p >= 0 && p < text.length() ? fenceCloser[lineOf(p)] : null;
            return marker != null && isCloser(closer, marker);
        }

        /** The header a chunk starting at {@code p} may repeat: {@code p} must start a data row's content. */
        String headerOfRowAt(int p) {
            if (p >= text.length()) return null;
            int line = lineOf(p);
            if (rowHeader[line] == null || !text.substring(lineStarts[line], p).isBlank()) return null;
            return rowHeader[line];
        }

        /** Whether {@code p} is on the first data row of a table, which stays with the header. */
        boolean isFirstRow(int p) {
            return p >= 0 && p < text.length() && firstRow[lineOf(p)];
        }

        /** The number of the table holding position {@code p}, or -1. */
        int tableAt(int p) {
            return p >= 0 && p < text.length() ? table[lineOf(p)] : -1;
        }

        boolean isDataRow(int p) {
            return p >= 0 && p < text.length() && rowHeader[lineOf(p)] != null;
        }

        /** Whether only blanks follow {@code p} on its line. */
        boolean atLineEnd(int p) {
            int nl = text.indexOf('\n', p);
            return text.substring(p, nl < 0 ? text.length() : nl).isBlank();
        }
    }

    /**
     * Whether the limits leave room for every table's header, separator and two rows, twice over (else tables may be
     * cut like lines).
     */
    private static boolean roomForTables(Blocks blocks, ChunkLimits limits) {
        if (limits.maxLines() > 0 && limits.maxLines() < 8) return false;
        for (String[] t : blocks.tables) {
            int need = limits.measure().units(t[0]) + 2 * limits.measure().units(t[1]) + 2;
            if (2 * need + 30 > limits.maxUnits()) return false;
        }
        return true;
    }

    /**
     * SPEC OUT-1: a table is cut only at the end of a row, and a chunk that goes on with its rows repeats its header
     * first.
     */
    private static void checkTables(Blocks blocks, List<Span> spans, String context) {
        for (int k = 0; k + 1 < spans.size(); k++) {
            int end = spans.get(k).end();
            Span next = spans.get(k + 1);
            int before = blocks.tableAt(end - 1);
            if (before >= 0 && before == blocks.tableAt(next.start()) || blocks.isDataRow(next.start())) {
                if (!blocks.isDataRow(next.start())
                        || blocks.isFirstRow(next.start())
                        || !blocks.atLineEnd(end)
                        || !next.repeatsHeader()) {
                    throw new AssertionError("table cut at " + end + " / " + next.start()
                            + " without a row boundary and the header " + "repeated; " + context);
                }
            }
            if (before >= 0 && blocks.lineOf(end - 1) == blocks.lineOf(next.start())) {
                throw new AssertionError("table row cut at " + end + "; " + context);
            }
        }
    }

    private static void checkGraphemes(String text, List<Span> spans, String context) {
        BreakIterator clusters = BreakIterator.getCharacterInstance(Locale.ROOT);
        clusters.setText(text);
        for (Span s : spans) {
            assertThat(clusters.isBoundary(s.start()))
                    .as("chunk starts inside a cluster at %d; %s", s.start(), context)
                    .isTrue();
            assertThat(clusters.isBoundary(s.end()))
                    .as("chunk ends inside a cluster at %d; %s", s.end(), context)
                    .isTrue();
        }
    }

    /** A cut inside a word is allowed only when the chunk had no whitespace it could have been cut at. */
    private static void checkNoNeedlessWordSplit(String text, List<Span> spans, String context) {
        for (int k = 0; k + 1 < spans.size(); k++) {
            int end = spans.get(k).end();
            boolean midWord = spans.get(k + 1).start() == end
                    && !Character.isWhitespace(text.charAt(end - 1))
                    && !Character.isWhitespace(text.charAt(end))
                    && CJK_SENTENCE_END.indexOf(text.charAt(end - 1)) < 0;
            if (!midWord) continue;
            int start = spans.get(k).start();
            for (int w = start + 1; w < end; w++) {
                if (Character.isWhitespace(text.charAt(w)) && !nextToFenceOpener(text, w)) {
                    throw new AssertionError(
                            "cut inside a word at " + end + " though whitespace at " + w + " was free; " + context);
                }
            }
        }
    }

    /**
     * Whitespace in a fence opener line, or before the first content of the fence (a cut there leaves an empty fence).
     */
    private static boolean nextToFenceOpener(String text, int w) {
        int lineStart = text.lastIndexOf('\n', w - 1) + 1;
        int lineEnd = text.indexOf('\n', w);
        String line = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd);
        if (OPENER.matcher(line).matches()) return true;
        if (!text.substring(lineStart, w).isBlank() || lineStart == 0) return false;
        int prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
        return OPENER.matcher(text.substring(prevStart, lineStart - 1)).matches();
    }
}
