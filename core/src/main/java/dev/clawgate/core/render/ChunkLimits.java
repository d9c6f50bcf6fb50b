package dev.clawgate.core.render;

import java.util.Objects;

/**
 * The size of one outbound message on a channel (SPEC OUT-1).
 *
 * @param maxUnits the most units (as {@code measure} counts them) one message may hold; at least 4, so that any single
 *     code point fits in every built-in measure
 * @param measure what the platform counts
 * @param maxLines the most lines one message may hold, or 0 for no line limit
 */
public record ChunkLimits(int maxUnits, TextMeasure measure, int maxLines) {
    /** The smallest limit accepted: one code point in UTF-8 takes up to 4 bytes. */
    public static final int MIN_UNITS = 4;

    public ChunkLimits {
        Objects.requireNonNull(measure, "measure");
        if (maxUnits < MIN_UNITS)
            throw new IllegalArgumentException("maxUnits must be at least " + MIN_UNITS + ": " + maxUnits);
        if (maxLines < 0) throw new IllegalArgumentException("maxLines must not be negative: " + maxLines);
    }

    /** A limit in UTF-16 code units with no line limit. */
    public static ChunkLimits of(int maxUnits) {
        return new ChunkLimits(maxUnits, TextMeasure.utf16(), 0);
    }

    /** The default for channels that set no limit: 4000 UTF-16 code units. */
    public static ChunkLimits defaults() {
        return of(4000);
    }

    /**
     * A limit in UTF-8 bytes per message and at most {@code maxLines} lines (0: no line limit), for platforms that
     * count bytes.
     */
    public static ChunkLimits utf8Bytes(int bytes, int maxLines) {
        return new ChunkLimits(bytes, TextMeasure.utf8Bytes(), maxLines);
    }

    /** The same measure and line limit with another unit limit. */
    public ChunkLimits withMaxUnits(int units) {
        return new ChunkLimits(units, measure, maxLines);
    }
}
