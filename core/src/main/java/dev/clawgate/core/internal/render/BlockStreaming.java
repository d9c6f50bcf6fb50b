package dev.clawgate.core.internal.render;

import dev.clawgate.core.render.BlockChunker;
import dev.clawgate.core.render.ChunkLimits;
import dev.clawgate.core.render.TextMeasure;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Block streaming settings of a channel (SPEC OUT-2). Sizes are counted in the channel's {@link TextMeasure};
 * {@code maxChars} is clamped to the channel limit by the {@link BlockChunker}.
 *
 * @param breakMode when buffered text is complete enough to send
 * @param minChars blocks smaller than this wait for more text (or the idle time)
 * @param maxChars no block is larger than this
 * @param breakPreference the strongest break looked for first
 * @param coalesceIdle how long a small block waits for more text before it is sent anyway
 * @param humanDelay the pause between blocks after the first
 */
public record BlockStreaming(
        BreakMode breakMode,
        int minChars,
        int maxChars,
        BreakPreference breakPreference,
        Duration coalesceIdle,
        HumanDelay humanDelay) {

    /** {@code block_streaming.break}. */
    public enum BreakMode {
        /** Blocks go out while the model writes, and at the end of each text block. */
        TEXT_END,
        /** Text is held until the model's message ends, then sent as blocks. */
        MESSAGE_END;

        public static BreakMode parse(String value) {
            return BlockStreaming.parse(BreakMode.class, value, "text_end or message_end");
        }
    }

    /** {@code chunk.break_preference}: where the break search starts; weaker breaks follow. */
    public enum BreakPreference {
        /** Blank line, then line break, sentence end, whitespace. */
        PARAGRAPH,
        /** Any line break, then sentence end, whitespace. */
        NEWLINE,
        /** Sentence end or line break, then whitespace. */
        SENTENCE;

        public static BreakPreference parse(String value) {
            return BlockStreaming.parse(BreakPreference.class, value, "paragraph, newline or sentence");
        }
    }

    public BlockStreaming {
        Objects.requireNonNull(breakMode, "breakMode");
        Objects.requireNonNull(breakPreference, "breakPreference");
        Objects.requireNonNull(coalesceIdle, "coalesceIdle");
        Objects.requireNonNull(humanDelay, "humanDelay");
        if (maxChars < ChunkLimits.MIN_UNITS)
            throw new IllegalArgumentException("maxChars must be at least " + ChunkLimits.MIN_UNITS);
        if (minChars < 0 || minChars > maxChars)
            throw new IllegalArgumentException("need 0 <= minChars <= maxChars: " + minChars);
        if (coalesceIdle.isNegative()) throw new IllegalArgumentException("coalesceIdle must not be negative");
    }

    /** The defaults: {@code text_end}, 800–1200, paragraph, 1000 ms idle, no human delay. */
    public static BlockStreaming defaults() {
        return new BlockStreaming(
                BreakMode.TEXT_END, 800, 1200, BreakPreference.PARAGRAPH, Duration.ofMillis(1000), HumanDelay.off());
    }

    private static <E extends Enum<E>> E parse(Class<E> type, String value, String expected) {
        try {
            return Enum.valueOf(
                    type, Objects.requireNonNull(value, "value").strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown value '" + value + "': expected " + expected, e);
        }
    }
}
