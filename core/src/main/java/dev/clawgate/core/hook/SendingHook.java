package dev.clawgate.core.hook;

import dev.clawgate.core.outbound.OutboundTarget;

/** {@code on_message_sending} (SPEC RP-1): may suppress a reply or rewrite its content, never its destination. */
@FunctionalInterface
public interface SendingHook {
    Decision onMessageSending(String text, OutboundTarget target);

    sealed interface Decision permits Send, Suppress {}

    record Send(String text) implements Decision {}

    record Suppress(String reason) implements Decision {}

    SendingHook PASS = (text, target) -> new Send(text);
}
