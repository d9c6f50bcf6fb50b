package dev.clawgate.core.provider;

/** Receives a streamed answer as it arrives. Called on the provider's thread; must not block long. */
public interface StreamObserver {
    StreamObserver NONE = delta -> {};

    void onTextDelta(String delta);

    default void onReasoningDelta(String delta) {}
}
