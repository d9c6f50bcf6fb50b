package dev.clawgate.core.outbound;

/** How a turn ended, told to the channel of its last message (connection-bound channels close on it). */
public enum TurnOutcome {
    REPLIED,
    FAILED,
    CANCELLED,
    TIMED_OUT,
    NO_REPLY
}
