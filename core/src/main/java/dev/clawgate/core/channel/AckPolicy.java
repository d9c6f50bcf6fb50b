package dev.clawgate.core.channel;

/**
 * When a channel acknowledges a message to its platform (SPEC IN-3). An adapter declares only the policies it can
 * really defer; {@link #MANUAL} is the default when it declares none.
 */
public enum AckPolicy {
    /** Once the message is parsed and durably recorded (the inbox commit). */
    AFTER_RECEIVE_RECORD,
    /** Once an agent run has accepted it. */
    AFTER_AGENT_DISPATCH,
    /** Once the final reply has a durable decision. */
    AFTER_DURABLE_SEND,
    /** The adapter owns its acks. */
    MANUAL
}
