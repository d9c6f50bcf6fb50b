package dev.clawgate.core.internal.trace;

import java.util.Locale;

/**
 * The phases of a turn that a {@link PhaseListener} hears (SPEC OP-8, OP-9): the inbound record, its wait in the
 * session's queue, the prompt, each model call, each tool call and each send.
 */
public enum Phase {
    INBOUND,
    QUEUE_WAIT,
    PROMPT,
    MODEL_CALL,
    TOOL_CALL,
    SEND;

    /** The phase's name in traces and records, e.g. {@code model_call}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
