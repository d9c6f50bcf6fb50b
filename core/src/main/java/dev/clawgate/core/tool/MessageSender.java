package dev.clawgate.core.tool;

/**
 * What {@code message_send} reaches (SPEC AG-5): the turn's own durable outbound path, bound to the turn, so the
 * agent's messages are kept, retried and never sent twice like its replies.
 */
@FunctionalInterface
public interface MessageSender {
    /**
     * Sends {@code text} to {@code to} on {@code channel}; null for either means the turn's own conversation.
     * {@code payload} is a platform-native payload (a JSON object as text) sent with it, or null (SPEC OUT-4 payload).
     * Returns a line for the model saying what happened.
     *
     * @throws IllegalArgumentException for a channel the gateway does not run, or a blank text
     */
    String send(String channel, String to, String text, String payload);

    /** Sends {@code text} with no platform-native payload. */
    default String send(String channel, String to, String text) {
        return send(channel, to, text, null);
    }

    /** For contexts without a turn (tests of other tools, one-off runs): every send is refused. */
    MessageSender NONE = (channel, to, text, payload) -> {
        throw new IllegalArgumentException("message_send is not available here");
    };
}
