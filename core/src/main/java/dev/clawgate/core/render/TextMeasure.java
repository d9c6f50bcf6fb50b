package dev.clawgate.core.render;

import java.util.Objects;

/**
 * How a platform counts the length of a message (SPEC OUT-1): most platforms count UTF-16 code units, others UTF-8
 * bytes. A measure must be additive over code point boundaries, i.e. {@code units(t, a, c) == units(t, a, b) + units(t,
 * b, c)} whenever {@code b} does not split a surrogate pair, because the {@link Chunker} sums it piece by piece.
 */
@FunctionalInterface
public interface TextMeasure {

    /** The units the platform counts for {@code text[from, to)}. */
    int units(CharSequence text, int from, int to);

    /** The units the platform counts for the whole of {@code text}. */
    default int units(CharSequence text) {
        return units(text, 0, text.length());
    }

    /** UTF-16 code units, what Java's {@code String.length()} counts (most chat platforms). */
    static TextMeasure utf16() {
        return (text, from, to) -> {
            Objects.checkFromToIndex(from, to, text.length());
            return to - from;
        };
    }

    /** Unicode code points. */
    static TextMeasure codePoints() {
        return (text, from, to) -> Character.codePointCount(text, from, to);
    }

    /** Bytes of the UTF-8 encoding (line protocols); a lone surrogate counts as the 3 bytes of its replacement. */
    static TextMeasure utf8Bytes() {
        return (text, from, to) -> {
            Objects.checkFromToIndex(from, to, text.length());
            int bytes = 0;
            for (int i = from; i < to; i++) {
                char c = text.charAt(i);
                if (c < 0x80) bytes += 1;
                else if (c < 0x800) bytes += 2;
                else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
                    bytes += 4;
                    i++;
                } else bytes += 3;
            }
            return bytes;
        };
    }
}
