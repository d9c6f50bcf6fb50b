package dev.clawgate.core.internal.agent;

import dev.clawgate.core.model.ToolCall;

/** Watches the loop as it works: streamed text per step, and each tool call (SPEC AG-6). */
public interface StepObserver {
    StepObserver NONE = new StepObserver() {};

    /** A model call starts; {@code step} counts from 0. */
    default void onStepStart(int step) {}

    default void onTextDelta(String delta) {}

    default void onReasoningDelta(String delta) {}

    default void onToolCall(ToolCall call) {}

    /** The tool of {@code call} returned, failed or was cancelled (SPEC RT-1: {@code /status} stops naming it). */
    default void onToolDone(ToolCall call) {}
}
