package dev.clawgate.core.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.internal.render.BlockStreaming.BreakMode;
import dev.clawgate.core.internal.render.BlockStreaming.BreakPreference;
import dev.clawgate.core.internal.render.HumanDelay;
import dev.clawgate.core.testing.ManualScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Block streaming on a manual clock (SPEC OUT-2). */
class BlockChunkerTest {
    private final ManualScheduler clock = new ManualScheduler();
    private final List<String> sent = new ArrayList<>();
    private final List<Long> sentAt = new ArrayList<>();

    private BlockChunker chunker(BlockStreaming settings, ChunkLimits limits) {
        return new BlockChunker(settings, limits, clock, new Random(7), block -> {
            sent.add(block);
            sentAt.add(clock.now());
        });
    }

    private static BlockStreaming settings(int min, int max, BreakPreference preference) {
        return new BlockStreaming(BreakMode.TEXT_END, min, max, preference, Duration.ofMillis(1000), HumanDelay.off());
    }

    private BlockChunker chunker(int min, int max) {
        return chunker(settings(min, max, BreakPreference.PARAGRAPH), ChunkLimits.defaults());
    }

    // SPEC OUT-2
    @Test
    void defaultsAreTheSpecified() {
        BlockStreaming d = BlockStreaming.defaults();
        assertThat(d)
                .isEqualTo(new BlockStreaming(
                        BreakMode.TEXT_END,
                        800,
                        1200,
                        BreakPreference.PARAGRAPH,
                        Duration.ofMillis(1000),
                        HumanDelay.off()));
        assertThat(HumanDelay.natural()).isEqualTo(new HumanDelay(Duration.ofMillis(800), Duration.ofMillis(2500)));
        assertThat(BreakMode.parse("message_end")).isEqualTo(BreakMode.MESSAGE_END);
        assertThat(BreakPreference.parse(" Sentence")).isEqualTo(BreakPreference.SENTENCE);
        assertThatThrownBy(() -> BreakMode.parse("never")).hasMessageContaining("text_end or message_end");
        assertThatThrownBy(() -> settings(50, 40, BreakPreference.PARAGRAPH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> settings(-1, 40, BreakPreference.PARAGRAPH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> settings(0, 3, BreakPreference.PARAGRAPH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HumanDelay.custom(Duration.ofMillis(5), Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BlockStreaming(
                        BreakMode.TEXT_END, 1, 10, BreakPreference.PARAGRAPH, Duration.ofMillis(-1), HumanDelay.off()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // SPEC OUT-2: nothing goes out below min_chars
    @Test
    void textBelowMinCharsIsHeld() {
        BlockChunker c = chunker(20, 60);
        c.push("Short text.\n\nMore");
        assertThat(sent).isEmpty();
        assertThat(c.isIdle()).isFalse();
    }

    // SPEC OUT-2: the last blank line at or past min_chars
    @Test
    void cutsAtTheLastBlankLinePastMinChars() {
        BlockChunker c = chunker(20, 100);
        c.push("Tiny.\n\nThe first paragraph is here.\n\nSecond\npara");
        assertThat(sent).containsExactly("Tiny.\n\nThe first paragraph is here.");
        c.finish();
        assertThat(sent).containsExactly("Tiny.\n\nThe first paragraph is here.", "Second\npara");
        assertThat(c.isIdle()).isTrue();
    }

    // SPEC OUT-2: then the last newline, sentence end, whitespace
    @Test
    void fallsBackToNewlineThenSentenceThenWhitespace() {
        BlockChunker c = chunker(10, 100);
        c.push("line one is long\nline two");
        assertThat(sent).containsExactly("line one is long");
        BlockChunker s = chunker(10, 100);
        s.push("A sentence here. Another");
        assertThat(sent).last().isEqualTo("A sentence here.");
        BlockChunker w = chunker(10, 100);
        w.push("words without any end");
        assertThat(sent).last().isEqualTo("words without any");
        assertThat(sent).hasSize(3);
    }

    // SPEC OUT-2: a blank line before min_chars does not count
    @Test
    void blankLineBeforeMinCharsIsNotAParagraphBreak() {
        BlockChunker c = chunker(20, 100);
        c.push("Hi.\n\nThis is one long line of text\nnext line");
        assertThat(sent).containsExactly("Hi.\n\nThis is one long line of text");
    }

    // SPEC OUT-2: break_preference newline and sentence start lower in the order
    @Test
    void breakPreferenceChoosesWhereTheSearchStarts() {
        String text = "Para one is here.\n\nPara two. Still two and more words here";
        List<String> firstBlocks = new ArrayList<>();
        for (BreakPreference preference : BreakPreference.values()) {
            sent.clear();
            chunker(settings(10, 60, preference), ChunkLimits.defaults()).push(text);
            firstBlocks.add(sent.getFirst());
        }
        assertThat(firstBlocks)
                .containsExactly("Para one is here.", "Para one is here.", "Para one is here.\n\nPara two.");
    }

    // SPEC OUT-2: no hard cut until max_chars forces one
    @Test
    void hardCutOnlyWhenForcedByMaxChars() {
        BlockChunker c = chunker(5, 20);
        c.push("abcdefghijklmnop");
        assertThat(sent).isEmpty();
        c.push("qrstuvwxyz");
        assertThat(sent).containsExactly("abcdefghijklmnopqrst");
        c.finish();
        assertThat(sent).containsExactly("abcdefghijklmnopqrst", "uvwxyz");
    }

    // SPEC OUT-2: max_chars is never above the channel limit
    @Test
    void maxCharsIsClampedToTheChannelLimit() {
        BlockChunker c = chunker(settings(5, 1200, BreakPreference.PARAGRAPH), ChunkLimits.of(30));
        assertThat(c.blockLimits().maxUnits()).isEqualTo(30);
        c.push("x".repeat(100));
        c.finish();
        assertThat(sent).hasSize(4).allSatisfy(b -> assertThat(b.length()).isLessThanOrEqualTo(30));
    }

    // SPEC OUT-2: never inside a code fence unless forced
    @Test
    void openCodeFenceIsNotCutUntilItCloses() {
        BlockChunker c = chunker(10, 200);
        c.push("Look:\n```python\nprint(1)\n\nprint(2)\n");
        assertThat(sent).isEmpty();
        c.push("```\n\nAfter the code.");
        assertThat(sent).containsExactly("Look:\n```python\nprint(1)\n\nprint(2)\n```");
    }

    // SPEC OUT-2: forced by max_chars, the fence is closed and reopened with its language
    @Test
    void forcedCutInsideAFenceClosesAndReopensIt() {
        BlockChunker c = chunker(5, 40);
        c.push("```js\n");
        for (int i = 0; i < 8; i++) c.push("call(" + i + ");\n");
        c.push("```\ndone");
        c.finish();
        assertThat(sent)
                .hasSizeGreaterThan(1)
                .allSatisfy(b -> assertThat(b.length()).isLessThanOrEqualTo(40));
        assertThat(sent.subList(0, sent.size() - 1))
                .allSatisfy(b -> assertThat(b).startsWith("```js\ncall(").endsWith("\n```"));
        String joined = String.join("\n", sent).replace("\n```\n```js\n", "\n");
        assertThat(joined)
                .isEqualTo("```js\n"
                        + "call(0);\ncall(1);\ncall(2);\ncall(3);\ncall(4);\ncall(5);\ncall(6);\ncall(7);\n```\ndone");
    }

    // SPEC OUT-2: a forced cut never falls in an unfinished line that may still become a fence delimiter
    @Test
    void forcedCutWaitsForALineThatMayBecomeALongerFence() {
        BlockChunker c = chunker(settings(50, 173, BreakPreference.PARAGRAPH), ChunkLimits.of(20));
        c.push("```\nabcdefghij\n```\n``");
        c.push("``json\n{}\n```` ");
        c.finish();
        assertThat(sent).containsExactly("```\nabcdefghij\n```", "````json\n{}\n````");
    }

    // SPEC OUT-2: a forced cut does not take an unfinished closer as the fence's end: it may grow into a body line
    @Test
    void forcedCutDoesNotTakeAnUnfinishedCloser() {
        BlockChunker c = chunker(5, 20);
        c.push("```\nabcdefghijkl\n\n```");
        c.push("`js\nx\n```");
        c.finish();
        assertThat(sent).containsExactly("```\nabcdefghijkl\n```", "```\n````js\nx\n```");
    }

    // SPEC OUT-2: at text end, an unfinished last line waits only while it may still become a fence line
    @Test
    void unfinishedLineWaitsOnlyWhileItMayBecomeAFenceLine() {
        for (String last : List.of("``", "   ~~~ ", "    ``", "`code` and", "~~x", "`~")) {
            sent.clear();
            BlockChunker c = chunker(100, 200);
            c.push("Intro.\n" + last);
            c.textEnd();
            clock.advance(1000);
            boolean waits = last.equals("``") || last.equals("   ~~~ ");
            assertThat(sent).as(last).containsExactly(waits ? "Intro." : "Intro.\n" + last);
        }
    }

    // SPEC OUT-2: a fence closed and directly followed by a longer fence with a language, in small random deltas
    @Test
    void fenceFollowedByALongerFenceSurvivesAnyDeltas() {
        String text = "Some code:\n\n```c++\n        x = 1\nreturn a + b;\n\n```\n````json\nif (x) {\n{\"a\": 1}\n```` "
                + "\nDone.";
        for (int run = 0; run < 300; run++) {
            Random r = new Random(run);
            List<String> blocks = new ArrayList<>();
            int limit = 30 + run % 40;
            int max = 40 + r.nextInt(200);
            BlockChunker c = new BlockChunker(
                    settings(r.nextBoolean() ? max : r.nextInt(max + 1), max, BreakPreference.values()[r.nextInt(3)]),
                    ChunkLimits.of(limit),
                    clock,
                    r,
                    blocks::add);
            for (int pos = 0; pos < text.length(); ) {
                int next = Math.min(text.length(), pos + 1 + r.nextInt(5));
                c.push(text.substring(pos, next));
                if (r.nextInt(4) == 0) clock.advance(1000);
                pos = next;
            }
            c.finish();
            assertThat(blocks)
                    .as("run %d", run)
                    .allSatisfy(b -> assertThat(b.lines()).doesNotContain("`", "``"));
            assertThat(ChunkerPropertyTest.align(text, blocks))
                    .as("run %d: %s", run, blocks)
                    .isNotNull();
        }
    }

    // SPEC OUT-2: small blocks are coalesced and flushed after coalesce_idle_ms
    @Test
    void smallBlockAtTextEndWaitsForTheIdleTimeAndCoalescesWithLaterText() {
        BlockChunker c = chunker(50, 200);
        c.push("Checking the weather.");
        c.textEnd();
        assertThat(sent).isEmpty();
        clock.advance(600);
        c.push(" It is sunny.");
        c.textEnd();
        clock.advance(999);
        assertThat(sent).isEmpty();
        clock.advance(1);
        assertThat(sent).containsExactly("Checking the weather. It is sunny.");
        assertThat(clock.now()).isEqualTo(1600);
        assertThat(c.isIdle()).isTrue();
    }

    // SPEC OUT-2: a complete block of min_chars or more goes out at once at text end
    @Test
    void completeBlockGoesOutAtTextEnd() {
        BlockChunker c = chunker(10, 200);
        c.push("A whole answer");
        assertThat(sent).isEmpty();
        c.textEnd();
        assertThat(sent).containsExactly("A whole answer");
        assertThat(clock.live()).isZero();
    }

    // SPEC OUT-2: while the model pauses mid-text, the idle flush sends up to the last safe break only
    @Test
    void idleFlushMidTextSendsUpToTheLastBreak() {
        BlockChunker c = chunker(100, 200);
        c.push("First sentence. Half a sente");
        clock.advance(1000);
        assertThat(sent).containsExactly("First sentence.");
        c.push("nce.");
        c.finish();
        assertThat(sent).containsExactly("First sentence.", "Half a sentence.");
    }

    // SPEC OUT-2: every delta restarts the idle time
    @Test
    void eachDeltaRestartsTheIdleTimer() {
        BlockChunker c = chunker(100, 200);
        for (int i = 0; i < 5; i++) {
            c.push("word ");
            clock.advance(900);
        }
        assertThat(sent).isEmpty();
        assertThat(clock.live()).isEqualTo(1);
        clock.advance(100);
        assertThat(sent).containsExactly("word word word word word");
    }

    // SPEC OUT-2: human_delay pauses between blocks after the first
    @Test
    void humanDelayPausesBetweenBlocksAfterTheFirst() {
        BlockStreaming s = new BlockStreaming(
                BreakMode.TEXT_END, 5, 20, BreakPreference.PARAGRAPH, Duration.ofMillis(1000), HumanDelay.natural());
        BlockChunker c = chunker(s, ChunkLimits.defaults());
        c.push("First block.\n\nSecond block.\n\nThird block.\n\n");
        c.finish();
        assertThat(sent).containsExactly("First block.");
        clock.advance(10_000);
        assertThat(sent).containsExactly("First block.", "Second block.", "Third block.");
        assertThat(sentAt.get(0)).isZero();
        assertThat(sentAt.get(1) - sentAt.get(0)).isBetween(800L, 2500L);
        assertThat(sentAt.get(2) - sentAt.get(1)).isBetween(800L, 2500L);
        assertThat(c.isIdle()).isTrue();
    }

    // SPEC OUT-2
    @Test
    void humanDelayIsDrawnFromItsRange() {
        Random r = new Random(1);
        HumanDelay d = HumanDelay.custom(Duration.ofMillis(100), Duration.ofMillis(102));
        List<Long> seen = new ArrayList<>();
        for (int i = 0; i < 200; i++) seen.add(d.next(r).toMillis());
        assertThat(seen).containsOnly(100L, 101L, 102L).contains(100L, 102L);
        assertThat(HumanDelay.custom(Duration.ofMillis(5), Duration.ofMillis(5)).next(r))
                .isEqualTo(Duration.ofMillis(5));
        assertThat(HumanDelay.off().isOff()).isTrue();
        assertThat(HumanDelay.natural().isOff()).isFalse();
    }

    // SPEC OUT-2: message_end holds the text until the model's message ends
    @Test
    void messageEndModeSendsNothingWhileTheModelWrites() {
        BlockStreaming s = new BlockStreaming(
                BreakMode.MESSAGE_END, 10, 30, BreakPreference.PARAGRAPH, Duration.ofMillis(1000), HumanDelay.off());
        BlockChunker c = chunker(s, ChunkLimits.defaults());
        c.push("First paragraph here.\n\nSecond paragraph here.\n\nThird");
        c.textEnd();
        clock.advance(5000);
        assertThat(sent).isEmpty();
        c.messageEnd();
        assertThat(sent).containsExactly("First paragraph here.", "Second paragraph here.\n\nThird");
    }

    // SPEC OUT-2, OUT-1: finish sends the rest, chunked within the limit
    @Test
    void finishSendsTheRestChunkedWithinTheLimit() {
        BlockChunker c =
                chunker(settings(100, 1200, BreakPreference.PARAGRAPH), new ChunkLimits(2000, TextMeasure.utf16(), 17));
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 30; i++) text.append("l").append(i).append('\n');
        c.push(text.toString());
        c.finish();
        assertThat(sent).allSatisfy(b -> assertThat(b.lines().count()).isLessThanOrEqualTo(17));
        assertThat(String.join("\n", sent)).isEqualTo(text.toString().strip());
        assertThat(clock.live()).isZero();
        assertThatThrownBy(() -> c.push("more")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(c::finish).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(c::textEnd).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(c::messageEnd).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(c::takeUnsent).isInstanceOf(IllegalStateException.class);
    }

    // SPEC OUT-2: what the blocks did not send (delayed blocks, buffered text) is handed back for the final reply
    @Test
    void takeUnsentReturnsTheDelayedBlocksAndTheBufferAndSendsNothingMore() {
        BlockStreaming s = new BlockStreaming(
                BreakMode.TEXT_END, 5, 20, BreakPreference.PARAGRAPH, Duration.ofMillis(1000), HumanDelay.natural());
        BlockChunker c = chunker(s, ChunkLimits.defaults());
        c.push("First block.\n\nSecond block.\n\nThird");
        assertThat(sent).containsExactly("First block.");

        assertThat(c.takeUnsent()).isEqualTo("Second block.\n\nThird");
        assertThat(clock.live()).isZero();
        assertThat(c.isIdle()).isTrue();
        clock.advance(10_000);
        assertThat(sent).containsExactly("First block.");
        assertThat(clock.live()).isZero();
        assertThatThrownBy(() -> c.push("more")).isInstanceOf(IllegalStateException.class);
    }

    // SPEC OUT-2: a fence a block closed is reopened before the rest, so the final reply renders as code
    @Test
    void takeUnsentReopensAFenceABlockClosed() {
        BlockChunker c = chunker(5, 40);
        c.push("```js\n");
        for (int i = 0; i < 6; i++) c.push("call(" + i + ");\n");
        assertThat(sent).isNotEmpty();
        String rest = c.takeUnsent();
        assertThat(rest).startsWith("```js\n");
        assertThat(String.join("\n", sent).replace("\n```", "") + "\n" + rest.substring("```js\n".length()))
                .isEqualTo("```js\ncall(0);\ncall(1);\ncall(2);\ncall(3);\ncall(4);\ncall(5);");
        assertThat(chunker(5, 40).takeUnsent()).isEmpty();
    }

    // SPEC OUT-2, OUT-11: a cancelled stream sends nothing more
    @Test
    void cancelDropsBufferedAndDelayedBlocks() {
        BlockStreaming s = new BlockStreaming(
                BreakMode.TEXT_END, 5, 20, BreakPreference.PARAGRAPH, Duration.ofMillis(1000), HumanDelay.natural());
        BlockChunker c = chunker(s, ChunkLimits.defaults());
        c.push("First block.\n\nSecond block.\n\nThird");
        assertThat(sent).containsExactly("First block.");
        c.cancel();
        assertThat(clock.live()).isZero();
        c.push("ignored");
        c.textEnd();
        c.messageEnd();
        clock.advance(10_000);
        assertThat(sent).containsExactly("First block.");
        assertThat(c.isIdle()).isTrue();
        c.finish();
        assertThat(sent).hasSize(1);
    }

    // SPEC OUT-2
    @Test
    void emptyDeltasChangeNothing() {
        BlockChunker c = chunker(5, 20);
        c.push("");
        c.push(null);
        c.textEnd();
        clock.advance(2000);
        c.finish();
        assertThat(sent).isEmpty();
        assertThat(clock.live()).isZero();
    }

    // SPEC OUT-2, OUT-1: a table cut between rows goes on under its repeated header, read from the whole reply
    @Test
    void aTableCutBetweenRowsRepeatsItsHeaderInTheNextBlockAndNeverTakesRowsForAHeader() {
        BlockChunker c = chunker(settings(30, 60, BreakPreference.NEWLINE), ChunkLimits.defaults());
        // the third and fourth rows look like a header and its separator to a reader starting at them
        String table =
                "| name | size |\n|---|---|\n| alpha | 1 |\n| beta | 2 |\n| gamma | 3 |\n|---|---|\n| delta | 4 |\n| "
                        + "epsilon | 5 |\n";
        for (String line : table.split("(?<=\n)")) c.push(line);
        c.finish();
        assertThat(sent).hasSizeGreaterThan(1);
        assertThat(sent.subList(1, sent.size()))
                .allSatisfy(b -> assertThat(b).startsWith("| name | size |\n|---|---|\n"));
        assertThat(sent).noneMatch(b -> b.startsWith("| gamma"));
        assertThat(ChunkerPropertyTest.align(table, sent)).isNotNull();
        assertThat(String.join("\n", sent)).contains("| epsilon | 5 |").containsOnlyOnce("| gamma | 3 |");
    }

    // SPEC OUT-2: a message end inside a table sends what came, and the rows after it still have the header
    @Test
    void rowsAfterAFlushedTableGoOnUnderItsHeaderAndProseAfterItDropsIt() {
        BlockChunker c = chunker(settings(25, 400, BreakPreference.PARAGRAPH), ChunkLimits.defaults());
        c.push("| k | v |\n|---|---|\n| a | 1 |\n");
        c.messageEnd();
        c.push("| b | 2 |\n");
        c.messageEnd();
        c.push("\nDone with the table.");
        c.finish();
        assertThat(sent)
                .containsExactly(
                        "| k | v |\n|---|---|\n| a | 1 |", "| k | v |\n|---|---|\n| b | 2 |", "Done with the table.");
    }

    // SPEC OUT-2: a header that cannot fit a block with a row is not repeated (the table is cut like lines)
    @Test
    void aHeaderTooLongToRepeatIsNotCarried() {
        BlockChunker c = chunker(settings(10, 40, BreakPreference.NEWLINE), ChunkLimits.defaults());
        String table = "| a very long header cell | another |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n";
        c.push(table);
        c.finish();
        assertThat(sent).allSatisfy(b -> assertThat(b.length()).isLessThanOrEqualTo(40));
        assertThat(ChunkerPropertyTest.align(table, sent)).isNotNull();
    }

    // SPEC OUT-2, OUT-1: a table pushed at once and cut between rows: every later block repeats its header
    @Test
    void aTableArrivingAtOnceIsCutBetweenRowsWithTheHeaderRepeated() {
        BlockChunker c = chunker(settings(20, 45, BreakPreference.NEWLINE), ChunkLimits.defaults());
        String table = "| k | v |\n|---|---|\n| a | 1 |\n| b | 2 |\n| c | 3 |\n| d | 4 |\n| e | 5 |\n";
        c.push(table);
        c.finish();
        assertThat(sent).hasSizeGreaterThanOrEqualTo(3).allSatisfy(b -> {
            assertThat(b.length()).isLessThanOrEqualTo(45);
            assertThat(b).startsWith("| k | v |\n|---|---|\n| ");
        });
        assertThat(ChunkerPropertyTest.align(table, sent)).isNotNull();
    }

    // SPEC OUT-2: prose right after a table (no blank line) ends it: the header is not put before the prose
    @Test
    void proseRightAfterATableDropsTheCarriedHeader() {
        BlockChunker c = chunker(settings(25, 400, BreakPreference.PARAGRAPH), ChunkLimits.defaults());
        c.push("| k | v |\n|---|---|\n| a | 1 |\n");
        c.push("So the table ends here, in prose.");
        c.finish();
        assertThat(sent.getFirst()).isEqualTo("| k | v |\n|---|---|\n| a | 1 |");
        assertThat(String.join(" ", sent.subList(1, sent.size()))).isEqualTo("So the table ends here, in prose.");
    }

    // SPEC OUT-2: a header and a row that cannot fit a block together are not repeated, nor with three lines or fewer a
    // block
    @Test
    void aHeaderIsNotRepeatedWhereItCannotFitWithARow() {
        BlockChunker c =
                chunker(settings(20, 400, BreakPreference.NEWLINE), new ChunkLimits(400, TextMeasure.utf16(), 2));
        c.push("| k | v |\n|---|---|\n| a | 1 |\n");
        c.push("| b | 2 |\n");
        c.finish();
        assertThat(sent).noneMatch(b -> b.indexOf("| k | v |") != b.lastIndexOf("| k | v |"));
        assertThat(String.join("\n", sent)).containsOnlyOnce("| k | v |").contains("| b | 2 |");
    }

    // SPEC OUT-2: in message_end mode new text of the same message stops the idle timer: nothing goes out in between
    @Test
    void newTextOfTheSameMessageStopsTheIdleTimer() {
        BlockChunker c = chunker(
                new BlockStreaming(
                        BreakMode.MESSAGE_END,
                        100,
                        400,
                        BreakPreference.PARAGRAPH,
                        Duration.ofMillis(1000),
                        HumanDelay.off()),
                ChunkLimits.defaults());
        c.push("A short first message.");
        c.messageEnd();
        assertThat(clock.live()).isEqualTo(1);
        c.push(" It goes on");
        assertThat(clock.live()).isZero();
        clock.advance(5_000);
        assertThat(sent).isEmpty();
        c.finish();
        assertThat(sent).containsExactly("A short first message. It goes on");
    }
}
