package dev.clawgate.core.hook;

import dev.clawgate.core.model.InboundMessage;

/** {@code on_message_received} (SPEC IN-7): may drop a message or replace it before its turn runs. */
@FunctionalInterface
public interface InboundHook {
    Decision onMessageReceived(InboundMessage message);

    sealed interface Decision permits Continue, Cancel {}

    /** Go on, with this (possibly modified) message. */
    record Continue(InboundMessage message) implements Decision {}

    /** Drop the message; the reason is logged and recorded. */
    record Cancel(String reason) implements Decision {}

    InboundHook PASS = Continue::new;
}
