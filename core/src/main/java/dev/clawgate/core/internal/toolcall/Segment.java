package dev.clawgate.core.internal.toolcall;

import java.util.List;

/**
 * One decided piece of model output, in order (SPEC AG-1, RP-2). Concatenating every segment's {@link #source} gives
 * the input back.
 *
 * @param kind what the piece is
 * @param form how it was written (plain text, a tag, a fence, a bracket block, a special token, isolated JSON)
 * @param source the characters it covers
 * @param shown what the user may see of it: the text itself for {@code TEXT}, the {@code content} of a JSON envelope
 *     that also carries calls, "" otherwise
 * @param inner the reasoning for {@code REASONING}; "" otherwise
 */
public record Segment(Kind kind, Form form, String source, String shown, String inner, List<RawCall> calls) {
    /** What a piece of output is. Only {@code CALL} holds calls; a call that failed to read carries its error. */
    public enum Kind {
        /** The user's text. */
        TEXT,
        /** Model reasoning in one of the configured reasoning tags. */
        REASONING,
        /** A complete, closed call block (its calls may still be malformed: they are reported, never run). */
        CALL,
        /** A tool result echoed by the model. */
        RESULT,
        /** Any other protocol: tool declarations, unclosed blocks, stray close tags, special tokens. */
        PROTOCOL
    }

    /** How a piece was written. */
    public enum Form {
        PLAIN,
        TAG,
        FENCE,
        BRACKET,
        TOKEN,
        JSON,
        LINE
    }

    public Segment {
        calls = calls == null ? List.of() : List.copyOf(calls);
        shown = shown == null ? "" : shown;
        inner = inner == null ? "" : inner;
    }

    static Segment text(String s) {
        return new Segment(Kind.TEXT, Form.PLAIN, s, s, "", List.of());
    }

    static Segment protocol(Form form, String s) {
        return new Segment(Kind.PROTOCOL, form, s, "", "", List.of());
    }

    /** Protocol that also tells the model what went wrong (an unclosed call, for instance); never run. */
    static Segment protocol(Form form, String s, RawCall error) {
        return new Segment(Kind.PROTOCOL, form, s, "", "", List.of(error));
    }

    static Segment call(Form form, String s, List<RawCall> calls, String shown) {
        return new Segment(Kind.CALL, form, s, shown, "", calls);
    }
}
