package dev.clawgate.core.outbound;

/** What an adapter found on the platform about a send a crash interrupted (SPEC OUT-7). */
public sealed interface Reconciliation {
    /** The platform has the message: acknowledge it, never resend. */
    record Found(MessageReceipt receipt) implements Reconciliation {}

    /** The platform proves it never got the message: send it. */
    record NotSent() implements Reconciliation {}

    /** Cannot tell: leave it unknown and report it. */
    record Unknown(String why) implements Reconciliation {}
}
