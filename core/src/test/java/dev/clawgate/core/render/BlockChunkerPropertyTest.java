package dev.clawgate.core.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clawgate.core.fixtures.PropertyRun;
import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.internal.render.BlockStreaming.BreakMode;
import dev.clawgate.core.internal.render.BlockStreaming.BreakPreference;
import dev.clawgate.core.internal.render.HumanDelay;
import dev.clawgate.core.testing.ManualScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Block streaming over generated replies cut into random deltas (SPEC OUT-2). */
class BlockChunkerPropertyTest {

    // SPEC OUT-2, OUT-1: however the stream is cut, blocks fit, fences balance and no text is lost
    @Test
    void blocksOfRandomStreamsFitAndLoseNoText() {
        PropertyRun.forAll("block streaming", r -> {
            String text = ReplyTexts.reply(r, false);
            int max = 40 + r.nextInt(400);
            int min = r.nextInt(max + 1);
            BlockStreaming settings = new BlockStreaming(
                    r.nextBoolean() ? BreakMode.TEXT_END : BreakMode.MESSAGE_END,
                    min,
                    max,
                    BreakPreference.values()[r.nextInt(3)],
                    Duration.ofMillis(r.nextInt(2000)),
                    r.nextBoolean() ? HumanDelay.off() : HumanDelay.natural());
            ChunkLimits channel =
                    new ChunkLimits(40 + r.nextInt(2000), TextMeasure.utf16(), r.nextInt(3) == 0 ? 17 : 0);
            ManualScheduler clock = new ManualScheduler();
            List<String> blocks = new ArrayList<>();
            BlockChunker chunker = new BlockChunker(settings, channel, clock, r, blocks::add);
            int pos = 0;
            while (pos < text.length()) {
                int next = Math.min(text.length(), pos + 1 + r.nextInt(40));
                if (next < text.length() && Character.isLowSurrogate(text.charAt(next))) next++;
                chunker.push(text.substring(pos, next));
                pos = next;
                // the model ends a text block or a message at the end of a line
                boolean lineEnd = text.charAt(next - 1) == '\n';
                switch (r.nextInt(12)) {
                    case 0 -> {
                        if (lineEnd) chunker.textEnd();
                    }
                    case 1 -> {
                        if (lineEnd) chunker.messageEnd();
                    }
                    case 2, 3 -> clock.advance(r.nextInt(3000));
                    default -> {}
                }
            }
            chunker.finish();
            clock.advance(1_000_000);
            assertThat(chunker.isIdle()).isTrue();
            ChunkLimits limits = chunker.blockLimits();
            String context = "settings " + settings + " limits " + limits.maxUnits() + "/" + limits.maxLines()
                    + "\ntext:\n" + text + "\nblocks: " + blocks;
            for (String block : blocks) {
                assertThat(block.isBlank()).as("blank block; %s", context).isFalse();
                assertThat(block.length())
                        .as("block over the limit: %s; %s", block, context)
                        .isLessThanOrEqualTo(limits.maxUnits());
                if (limits.maxLines() > 0) {
                    assertThat(block.split("\n", -1).length)
                            .as("too many lines; %s", context)
                            .isLessThanOrEqualTo(limits.maxLines());
                }
                if (limits.maxUnits() >= 64) {
                    assertThat(ChunkerPropertyTest.fencesBalancedAndFilled(block))
                            .as("fence in %s; %s", block, context)
                            .isTrue();
                }
            }
            assertThat(ChunkerPropertyTest.align(text, blocks))
                    .as("text not recoverable; %s", context)
                    .isNotNull();
        });
    }
}
