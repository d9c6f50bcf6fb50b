package dev.clawgate.core.internal.trace;

/** One phase while it runs; {@link #close()} ends it. What it learns on the way is added as attributes. */
public interface PhaseScope extends AutoCloseable {
    PhaseScope NONE = () -> {};

    /** A detail of the phase, e.g. {@code outcome = ok}; never message text or a secret. */
    default void attribute(String key, String value) {}

    /** The phase failed: {@code reason} is a kind or class name, never a message that may quote user text. */
    default void failed(String reason) {}

    @Override
    void close();
}
