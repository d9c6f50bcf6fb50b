package dev.clawgate.core.render;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The chunker's invariants over thousands of generated replies (SPEC OUT-1): no chunk over the
 * limit or the line limit, none blank, fences balanced and never empty, the text recoverable, no
 * cut inside a word when whitespace was available, none inside a grapheme cluster.
 */
class ChunkerPropertyTest {
    private static final Pattern OPENER = Pattern.compile(" {0,3}(`{3,}|~{3,})([^\\n]*)");
    private static final Pattern LEADING_OPENER = Pattern.compile("\\A {0,3}(?:`{3,}|~{3,})[^\\n]*\\n");
    private static final Pattern TRAILING_CLOSER = Pattern.compile("\\n(?:`{3,}|~{3,})\\z");
    private static final Pattern LEADING_TABLE_HEADER = Pattern.compile("\\A[^\\n]*\\|[^\\n]*\\n[ \\t]*[|:\\- \\t]*-[|:\\- \\t]*\\n");
    private static final String CJK_SENTENCE_END = "\u3002\uff01\uff1f";

    /** Where each chunk's own text lies in the original. */
    record Span(int start, int end) {}

    // SPEC OUT-1
    @Test
    void chunksOfGeneratedRepliesKeepEveryInvariant() {
        PropertyRun.forAll("chunker invariants", r -> {
            String text = ReplyTexts.reply(r);
            ChunkLimits limits = limits(r);
            List<String> chunks = Chunker.split(text, limits);
            String context = "limits " + limits.maxUnits() + "/" + limits.maxLines() + " units=" + limits.measure().units("\u00e9\u20ac")
                    + " text:\n" + text + "\nchunks: " + chunks;
            for (String chunk : chunks) {
                assertThat(chunk.isBlank()).as("blank chunk; %s", context).isFalse();
                assertThat(limits.measure().units(chunk)).as("chunk over the limit: %s; %s", chunk, context)
                        .isLessThanOrEqualTo(limits.maxUnits());
                if (limits.maxLines() > 0) {
                    assertThat(chunk.split("\n", -1).length).as("too many lines: %s; %s", chunk, context)
                            .isLessThanOrEqualTo(limits.maxLines());
                }
                if (roomForFences(text, limits)) {
                    assertThat(fencesBalancedAndFilled(chunk)).as("unbalanced or empty fence: %s; %s", chunk, context).isTrue();
                }
            }
            List<Span> spans = align(text, chunks);
            assertThat(spans).as("text not recoverable; %s", context).isNotNull();
            if (limits.maxUnits() >= 32) {
                checkGraphemes(text, spans, context);
                checkNoNeedlessWordSplit(text, spans, context);
            }
        });
    }

    // SPEC OUT-1: the real channel limits on long replies
    @Test
    void channelLimitsOnLongRepliesKeepTheInvariants() {
        ChunkLimits[] channels = {ChunkLimits.telegram(), ChunkLimits.discord(), ChunkLimits.slack(), ChunkLimits.irc(400)};
        PropertyRun.forAll("channel limits", r -> {
            if (r.nextInt(10) != 0) return; // long texts: a tenth of the trials is plenty
            StringBuilder sb = new StringBuilder();
            while (sb.length() < 12_000) sb.append(ReplyTexts.reply(r, false)).append("\n\n");
            String text = sb.toString();
            ChunkLimits limits = channels[r.nextInt(channels.length)];
            List<String> chunks = Chunker.split(text, limits);
            for (String chunk : chunks) {
                assertThat(limits.measure().units(chunk)).isLessThanOrEqualTo(limits.maxUnits());
                if (limits.maxLines() > 0) assertThat(chunk.split("\n", -1).length).isLessThanOrEqualTo(limits.maxLines());
                if (limits.maxLines() != 1) assertThat(fencesBalancedAndFilled(chunk)).as(chunk).isTrue();
            }
            assertThat(align(text, chunks)).as("text not recoverable").isNotNull();
        });
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
     * Aligns the chunks with the original: each chunk, after dropping a possible synthetic opener or
     * table header at its start and a closer at its end, must be the next piece of the original,
     * with nothing but whitespace between pieces. Returns the pieces' spans, or null if none fits.
     */
    static List<Span> align(String text, List<String> chunks) {
        List<Span> spans = new ArrayList<>();
        return align(text, chunks, 0, 0, spans, new HashSet<>()) ? spans : null;
    }

    private static boolean align(String text, List<String> chunks, int i, int pos, List<Span> spans, Set<Long> dead) {
        if (i == chunks.size()) return text.substring(pos).isBlank();
        if (!dead.add(((long) i << 32) | pos)) return false;
        String chunk = chunks.get(i);
        for (String body : bodies(chunk)) {
            int at = skipWhitespace(text, pos);
            if (body.isEmpty() || !text.startsWith(body, at)) continue;
            int end = at + body.length();
            spans.add(new Span(at, end));
            if (align(text, chunks, i + 1, end, spans, dead)) return true;
            // a closer at the chunk's end may be the fence's own, with blank lines before it dropped
            Matcher closer = TRAILING_CLOSER.matcher(chunk);
            int ownCloser = skipWhitespace(text, end);
            if (closer.find() && text.startsWith(chunk.substring(closer.start() + 1), ownCloser)
                    && align(text, chunks, i + 1, ownCloser + closer.end() - closer.start() - 1, spans, dead)) {
                return true;
            }
            spans.removeLast();
        }
        return false;
    }

    private static int skipWhitespace(String text, int pos) {
        int at = pos;
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        return at;
    }

    /** The chunk's possible own texts: with or without its synthetic lines, whitespace at both ends dropped. */
    private static List<String> bodies(String chunk) {
        List<String> heads = new ArrayList<>(List.of(chunk));
        Matcher opener = LEADING_OPENER.matcher(chunk);
        if (opener.find()) heads.add(chunk.substring(opener.end()));
        Matcher header = LEADING_TABLE_HEADER.matcher(chunk);
        if (header.find()) heads.add(chunk.substring(header.end()));
        List<String> bodies = new ArrayList<>();
        for (String head : heads) {
            bodies.add(head.strip());
            Matcher closer = TRAILING_CLOSER.matcher(head);
            if (closer.find()) bodies.add(head.substring(0, closer.start()).strip());
        }
        return bodies;
    }

    private static void checkGraphemes(String text, List<Span> spans, String context) {
        BreakIterator clusters = BreakIterator.getCharacterInstance(Locale.ROOT);
        clusters.setText(text);
        for (Span s : spans) {
            assertThat(clusters.isBoundary(s.start())).as("chunk starts inside a cluster at %d; %s", s.start(), context).isTrue();
            assertThat(clusters.isBoundary(s.end())).as("chunk ends inside a cluster at %d; %s", s.end(), context).isTrue();
        }
    }

    /** A cut inside a word is allowed only when the chunk had no whitespace it could have been cut at. */
    private static void checkNoNeedlessWordSplit(String text, List<Span> spans, String context) {
        for (int k = 0; k + 1 < spans.size(); k++) {
            int end = spans.get(k).end();
            boolean midWord = spans.get(k + 1).start() == end && !Character.isWhitespace(text.charAt(end - 1))
                    && !Character.isWhitespace(text.charAt(end)) && CJK_SENTENCE_END.indexOf(text.charAt(end - 1)) < 0;
            if (!midWord) continue;
            int start = spans.get(k).start();
            for (int w = start + 1; w < end; w++) {
                if (Character.isWhitespace(text.charAt(w)) && !nextToFenceOpener(text, w)) {
                    throw new AssertionError("cut inside a word at " + end + " though whitespace at " + w + " was free; " + context);
                }
            }
        }
    }

    /** Whitespace in a fence opener line, or before the first content of the fence (a cut there leaves an empty fence). */
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
