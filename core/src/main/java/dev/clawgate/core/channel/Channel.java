package dev.clawgate.core.channel;

import java.util.List;

/**
 * One chat platform (ARCHITECTURE: SPIs): its receive side and its {@link MessageAdapter}. {@link #start} returns once
 * the listener runs (on its own threads); it throws when the channel cannot start, with a message that says why.
 */
public interface Channel {
    String name();

    void start(InboundSink sink) throws Exception;

    /** HTTP routes the server mounts for this channel (webhooks); none by default. */
    default List<WebhookRoute> webhookRoutes() {
        return List.of();
    }

    void stop();

    default ChannelHealth health() {
        return ChannelHealth.UP;
    }

    MessageAdapter messageAdapter();

    /**
     * The receive ack policies this channel can really defer to (SPEC IN-3); {@link AckPolicy#MANUAL} alone when it
     * declares none. Webhook channels may declare only after_receive_record.
     */
    default java.util.Set<AckPolicy> ackPolicies() {
        return java.util.Set.of(AckPolicy.MANUAL);
    }

    /**
     * Webhook requests this channel refused (missing or wrong secret or signature) since it was made (SPEC IN-5:
     * counted, not stored); the server shows it on {@code /metrics}. 0 for a channel without webhooks.
     */
    default long rejectedRequests() {
        return 0;
    }

    /** Owner channels (terminal, web chat, API) skip access control (SPEC IN-5). */
    default boolean ownerChannel() {
        return false;
    }

    /** Request/response channels always queue as followup (SPEC DI-2). */
    default boolean requestResponse() {
        return false;
    }

    /**
     * How replies should be formatted here, for the prompt's Channel Capabilities section (SPEC SP-1): what the
     * platform renders (Markdown flavour, tables, media markers, see
     * {@link dev.clawgate.core.prompt.ChannelGuidance#MEDIA_MARKERS}). Empty: the generic guidance.
     */
    default String formatGuidance() {
        return "";
    }
}
