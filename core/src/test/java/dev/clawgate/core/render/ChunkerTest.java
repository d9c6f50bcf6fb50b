package dev.clawgate.core.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Example-based rules of the chunker (SPEC OUT-1); {@link ChunkerPropertyTest} checks the invariants at scale. */
class ChunkerTest {

    private static ChunkLimits limit(int units) {
        return ChunkLimits.of(units);
    }

    // SPEC OUT-1
    @Test
    void shortReplyIsOneChunkWithItsOuterWhitespaceTrimmed() {
        assertThat(Chunker.split("  hello world \n", limit(100))).containsExactly("hello world");
    }

    // SPEC OUT-1
    @Test
    void blankOrNullReplyHasNoChunks() {
        assertThat(Chunker.split(null, limit(10))).isEmpty();
        assertThat(Chunker.split(" \n\t\n ", limit(10))).isEmpty();
    }

    // SPEC OUT-1: paragraph first, even when a line break or a sentence end comes later
    @Test
    void prefersTheLastParagraphBreakOverLaterLineAndSentenceBreaks() {
        String text = "First para.\n\nSecond para. Still second\nline two of second para and more";
        assertThat(Chunker.split(text, limit(40))).first().isEqualTo("First para.");
    }

    // SPEC OUT-1
    @Test
    void fallsBackToLineThenSentenceThenWordThenHardCut() {
        assertThat(Chunker.split("aaa bbb\nccc ddd eee", limit(12))).containsExactly("aaa bbb", "ccc ddd eee");
        assertThat(Chunker.split("One two. Three four five", limit(15))).containsExactly("One two.", "Three four five");
        assertThat(Chunker.split("alpha beta gamma", limit(12))).containsExactly("alpha beta", "gamma");
        assertThat(Chunker.split("abcdefghij", limit(4))).containsExactly("abcd", "efgh", "ij");
    }

    // SPEC OUT-1
    @Test
    void sentenceEndMayBeFollowedByAClosingQuote() {
        assertThat(Chunker.split("He said \"stop.\" Then he left the room", limit(20)))
                .first()
                .isEqualTo("He said \"stop.\"");
    }

    // SPEC OUT-1: CJK has no spaces; a full stop is still a sentence end
    @Test
    void cjkSentenceEndIsABreakWithoutWhitespace() {
        String text = "\u4eca\u65e5\u306f\u6674\u308c\u3002\u660e\u65e5\u306f\u96e8\u304c\u964d\u308b";
        assertThat(Chunker.split(text, limit(10)))
                .containsExactly("\u4eca\u65e5\u306f\u6674\u308c\u3002", "\u660e\u65e5\u306f\u96e8\u304c\u964d\u308b");
    }

    // SPEC OUT-1: a limit counts what the platform counts
    @Test
    void ircLimitCountsUtf8Bytes() {
        String text = "\u00e9\u00e9\u00e9\u00e9\u00e9"; // 10 bytes, 5 UTF-16 units
        List<String> chunks = Chunker.split(text, new ChunkLimits(4, TextMeasure.utf8Bytes(), 0));
        assertThat(chunks).containsExactly("\u00e9\u00e9", "\u00e9\u00e9", "\u00e9");
        assertThat(Chunker.split(text, limit(5))).containsExactly(text);
    }

    // SPEC OUT-1
    @Test
    void telegramLimitCountsUtf16UnitsSoAnEmojiCountsTwice() {
        String emoji = "\uD83D\uDE00".repeat(3); // 3 code points, 6 UTF-16 units
        assertThat(Chunker.split(emoji, new ChunkLimits(4, TextMeasure.utf16(), 0)))
                .containsExactly("\uD83D\uDE00\uD83D\uDE00", "\uD83D\uDE00");
        assertThat(Chunker.split(emoji, new ChunkLimits(4, TextMeasure.codePoints(), 0)))
                .containsExactly(emoji);
    }

    // SPEC OUT-1: no cut inside a grapheme cluster
    @Test
    void neverCutsInsideAZwjSequenceAFlagOrACombiningMark() {
        String family = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67"; // 8 UTF-16 units
        String flag = "\uD83C\uDDE9\uD83C\uDDEA"; // 4 units
        String accented = "e\u0301\u0327"; // 3 units, one cluster
        assertThat(Chunker.split(family + family, limit(10))).containsExactly(family, family);
        assertThat(Chunker.split(flag + flag + flag, limit(6))).containsExactly(flag, flag, flag);
        assertThat(Chunker.split(accented.repeat(3), limit(4))).containsExactly(accented, accented, accented);
    }

    // SPEC OUT-1: the one exception, a cluster larger than the whole limit, is cut between code points
    @Test
    void clusterLargerThanTheLimitIsCutBetweenCodePoints() {
        String family = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67";
        List<String> chunks = Chunker.split(family, limit(5));
        assertThat(String.join("", chunks)).isEqualTo(family);
        assertThat(chunks)
                .allSatisfy(c -> assertThat(c.length()).isLessThanOrEqualTo(5))
                .allSatisfy(
                        c -> assertThat(Character.isLowSurrogate(c.charAt(0))).isFalse());
    }

    // SPEC OUT-1: Discord's 17-line limit
    @Test
    void discordLimitsLinesAsWellAsCharacters() {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 40; i++) text.append("line ").append(i).append('\n');
        List<String> chunks = Chunker.split(text.toString(), new ChunkLimits(2000, TextMeasure.utf16(), 17));
        assertThat(chunks).hasSize(3);
        assertThat(chunks.get(0).lines()).hasSize(17).first().isEqualTo("line 1");
        assertThat(chunks.get(1).lines()).first().isEqualTo("line 18");
        assertThat(chunks.get(2).lines()).hasSize(6).last().isEqualTo("line 40");
    }

    // SPEC OUT-1: a code block split across chunks is closed and reopened with the same fence and language
    @Test
    void splitCodeBlockIsClosedAndReopenedWithItsLanguage() {
        String text = "Intro\n\n```python\nprint(1)\nprint(2)\nprint(3)\n```\nOutro";
        List<String> chunks = Chunker.split(text, limit(36));
        assertThat(chunks)
                .containsExactly("Intro", "```python\nprint(1)\nprint(2)\n```", "```python\nprint(3)\n```\nOutro");
        assertThat(chunks).allSatisfy(c -> assertThat(c.length()).isLessThanOrEqualTo(36));
    }

    // SPEC OUT-1: longer fences and tilde fences reopen as written; a shorter fence inside does not close them
    @Test
    void longerAndTildeFencesAreReopenedAsWritten() {
        String text = "````markdown\n```js\nx()\n```\nmore text here\n````";
        List<String> chunks = Chunker.split(text, limit(30));
        assertThat(chunks)
                .allSatisfy(c -> assertThat(c).startsWith("````markdown\n").endsWith("\n````"));
        assertThat(chunks).hasSizeGreaterThan(1);
        List<String> tilde = Chunker.split("~~~ sh\nls -la\ncd /tmp\n~~~", limit(18));
        assertThat(tilde).containsExactly("~~~ sh\nls -la\n~~~", "~~~ sh\ncd /tmp\n~~~");
    }

    // SPEC OUT-1: synthetic fences count against the limit, and no chunk is an empty fence
    @Test
    void noChunkIsAnEmptyFence() {
        String text = "```java\n" + "int a = 1;\n".repeat(6) + "```";
        List<String> chunks = Chunker.split(text, limit(30));
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.length()).isLessThanOrEqualTo(30);
            assertThat(c).startsWith("```java\nint a = 1;").endsWith("\n```");
        });
    }

    // SPEC OUT-1: a cut inside a code line keeps the next line's indent
    @Test
    void codeIndentationSurvivesACut() {
        String text = "```py\ndef f():\n    return 1\n```";
        assertThat(Chunker.split(text, limit(22))).containsExactly("```py\ndef f():\n```", "```py\n    return 1\n```");
    }

    // SPEC OUT-1: an unclosed fence at the end of the reply is closed, so every chunk is balanced
    @Test
    void unclosedFenceIsClosedAtTheEnd() {
        assertThat(Chunker.split("see:\n```\ncode", limit(100))).containsExactly("see:\n```\ncode\n```");
    }

    // SPEC OUT-1: a table is split only between rows and the next chunk repeats the header rows
    @Test
    void tableIsSplitBetweenRowsAndTheHeaderIsRepeated() {
        String text = "| name | qty |\n|---|---|\n| apple | 1 |\n| pear | 2 |\n| plum | 3 |";
        List<String> chunks = Chunker.split(text, limit(52));
        assertThat(chunks)
                .containsExactly(
                        "| name | qty |\n|---|---|\n| apple | 1 |\n| pear | 2 |",
                        "| name | qty |\n|---|---|\n| plum | 3 |");
    }

    // SPEC OUT-1: the header is never separated from the first row
    @Test
    void textBeforeATableIsCutBeforeTheHeaderRatherThanAfterIt() {
        String text = "Prices:\n| name | qty |\n|---|---|\n| apple | 1 |";
        assertThat(Chunker.split(text, limit(40)))
                .containsExactly("Prices:", "| name | qty |\n|---|---|\n| apple | 1 |");
    }

    // SPEC OUT-1: a row too long for a chunk with the header degrades to a plain cut, and still terminates
    @Test
    void tableRowLongerThanTheLimitDegradesToPlainCuts() {
        String text = "| a | b |\n|---|---|\n| " + "word ".repeat(20) + "|";
        List<String> chunks = Chunker.split(text, limit(30));
        assertThat(chunks).allSatisfy(c -> assertThat(c.length()).isLessThanOrEqualTo(30));
        assertThat(String.join(" ", chunks).replaceAll("\\s+", "")).isEqualTo(text.replaceAll("\\s+", ""));
    }

    // SPEC OUT-1: limits too small for a fence plus one character still terminate (fences dropped)
    @Test
    void limitTooSmallForAFenceDropsTheSyntheticFences() {
        String text = "```python\nprint('hello')\n```";
        List<String> chunks = Chunker.split(text, limit(8));
        assertThat(chunks).allSatisfy(c -> assertThat(c.length()).isBetween(1, 8));
        assertThat(String.join("", chunks).replaceAll("\\s+", "")).isEqualTo(text.replaceAll("\\s+", ""));
        assertThat(Chunker.split(text, new ChunkLimits(100, TextMeasure.utf16(), 2)))
                .allSatisfy(c -> assertThat(c.lines().count()).isLessThanOrEqualTo(2));
    }

    // SPEC OUT-1: IRC sends one line per message
    @Test
    void ircHasOneLinePerMessage() {
        assertThat(Chunker.split("one\ntwo\n\nthree", ChunkLimits.utf8Bytes(400, 1)))
                .containsExactly("one", "two", "three");
    }

    // SPEC OUT-1: a limit counts what the platform counts (channels set their own numbers)
    @Test
    void limitFactoriesKeepTheirMeasureAndLineLimit() {
        ChunkLimits units = ChunkLimits.of(4096);
        assertThat(units)
                .extracting(ChunkLimits::maxUnits, ChunkLimits::maxLines)
                .containsExactly(4096, 0);
        assertThat(units.measure().units("é😀")).isEqualTo(3);
        assertThat(ChunkLimits.defaults())
                .extracting(ChunkLimits::maxUnits, ChunkLimits::maxLines)
                .containsExactly(4000, 0);
        ChunkLimits bytes = ChunkLimits.utf8Bytes(350, 1);
        assertThat(bytes)
                .extracting(ChunkLimits::maxUnits, ChunkLimits::maxLines)
                .containsExactly(350, 1);
        assertThat(bytes.measure().units("é😀")).isEqualTo(6);
        assertThat(bytes.withMaxUnits(100))
                .extracting(ChunkLimits::maxUnits, ChunkLimits::maxLines)
                .containsExactly(100, 1);
        assertThatThrownBy(() -> ChunkLimits.of(3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ChunkLimits(10, TextMeasure.utf16(), -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // SPEC OUT-1
    @Test
    void measuresCountUnitsBytesAndCodePoints() {
        String s = "a\u00e9\u20ac\uD83D\uDE00";
        assertThat(TextMeasure.utf16().units(s)).isEqualTo(5);
        assertThat(TextMeasure.codePoints().units(s)).isEqualTo(4);
        assertThat(TextMeasure.utf8Bytes().units(s)).isEqualTo(1 + 2 + 3 + 4);
        assertThat(TextMeasure.utf8Bytes().units("\uD83D")).isEqualTo(3);
        assertThat(TextMeasure.utf8Bytes().units(s, 1, 3)).isEqualTo(5);
    }
}
