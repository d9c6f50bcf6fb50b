package dev.clawgate.core.outbound;

/** Receives a turn's reply text as it is generated, already sanitised, for channels that stream. */
public interface ReplyStream {
    ReplyStream NONE = delta -> {};

    void delta(String text);

    /**
     * The model's reasoning as it is generated, when the session asked for {@code /reasoning stream} (SPEC RP-4); a
     * stream that has no place for it ignores it.
     */
    default void reasoning(String text) {}

    /**
     * The reply will not be finalised into this stream's draft (SPEC RP-4 on: the reasoning goes out first, so the
     * answer must be a message below it, not the draft above it): the draft goes now. A stream whose draft has no place
     * of its own in the chat ignores it.
     */
    default void discard() {}
}
